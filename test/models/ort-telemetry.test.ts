import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { bin, ensureBuilt, root } from "../helpers/built.js";

const run = promisify(execFile);
const folders: string[] = [];

/**
 * onnxruntime suppresses its telemetry itself where these say it runs in CI (`.ci/run` sets CI):
 * the child runs without them, as on a user's machine, or neither test would show anything.
 */
const CI_MARKERS = [
  "CI",
  "TF_BUILD",
  "GITHUB_ACTIONS",
  "GITLAB_CI",
  "CIRCLECI",
  "TRAVIS",
  "JENKINS_URL",
  "CODEBUILD_BUILD_ID",
  "BUILDKITE",
  "TEAMCITY_VERSION",
  "APPVEYOR",
  "BITBUCKET_BUILD_NUMBER",
  "SYSTEM_TEAMFOUNDATIONCOLLECTIONURI",
  "ORT_RUNNING_UNIT_TESTS",
];

/**
 * Runs `guardrail check` (the encoder on, so onnxruntime creates a session) with its own TMPDIR,
 * and lists what onnxruntime's telemetry uploader left there: it writes /tmp/mat-debug-<pid>.log
 * (under TMPDIR) in every process where it is on, a trace of what cannot be seen offline.
 */
async function telemetryTraces(ort: string | undefined): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "guardrail-ort-"));
  folders.push(dir);
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir };
  delete env.ORT_DISABLE_TELEMETRY;
  for (const name of CI_MARKERS) delete env[name];
  if (ort !== undefined) env.ORT_DISABLE_TELEMETRY = ort;
  await run(process.execPath, [bin, "check", "--json", "What is the capital of France?"], { cwd: root, env });
  return (await readdir(dir)).filter((f) => f.startsWith("mat-debug-"));
}

describe("onnxruntime's telemetry", () => {
  beforeAll(() => ensureBuilt(), 120_000);
  afterEach(async () => {
    for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it("is off unless the user turns it on", async () => {
    expect(await telemetryTraces(undefined)).toEqual([]);
  }, 60_000);

  it("stays the user's choice: ORT_DISABLE_TELEMETRY=0 leaves it on (and shows the test can see it)", async () => {
    expect(await telemetryTraces("0")).toHaveLength(1);
  }, 60_000);
});
