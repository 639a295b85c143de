import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKey, type KeyRecord } from "../../src/config/keys.js";
import type { RunningServer } from "../../src/server/start.js";
import { startBuiltServer } from "../helpers/built-server.js";
import { timeToFlip } from "../helpers/flip.js";
import { writeKubeVolume } from "../helpers/kube-volume.js";
import {
  appsYaml,
  appUnflagged,
  keyRefused,
  keysYaml,
  keyWorks,
  profileVolumeFiles,
} from "../helpers/probes.js";

// The server reading a Kubernetes projected volume (deploy/kubernetes/deployment.yaml): the Secret's
// keys.yaml and the ConfigMap's apps.yaml and profiles/ in one directory of `..data` symlinks,
// updated by the kubelet swapping `..data` to a new folder and deleting the old one.

const WINDOW_MS = 5000;
const record = (k: ReturnType<typeof generateKey>): KeyRecord => ({
  ...k.record,
  label: "",
  created: "2026-11-01",
});

describe("a server on a Kubernetes ConfigMap + Secret volume", () => {
  const old = generateKey();
  const next = generateKey();
  let dir: string;
  let server: RunningServer;
  const volume = (keys: KeyRecord[], profile: string) => ({
    ...profileVolumeFiles(),
    "apps.yaml": appsYaml(profile),
    "keys.yaml": keysYaml(keys),
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "guardrail-kube-"));
    await writeKubeVolume(dir, volume([record(old)], "strict"));
    server = await startBuiltServer({ configDir: dir, port: 0, log: () => {}, encoderWorkers: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("takes a new key, then a revoked one, then an app's new profile, each within seconds of the swap", async (context) => {
    expect(await keyWorks(old.key)(server.url)).toBe(true);
    expect(await keyWorks(next.key)(server.url)).toBe(false);

    let since = performance.now();
    await writeKubeVolume(dir, volume([record(old), record(next)], "strict"));
    const created = await timeToFlip([server.url], keyWorks(next.key), since, { timeoutMs: WINDOW_MS });
    expect(await keyWorks(old.key)(server.url)).toBe(true);

    since = performance.now();
    await writeKubeVolume(dir, volume([{ ...record(old), revoked: "2026-11-27" }, record(next)], "strict"));
    const revoked = await timeToFlip([server.url], keyRefused(old.key), since, { timeoutMs: WINDOW_MS });

    since = performance.now();
    await writeKubeVolume(dir, volume([record(next)], "off"));
    const rebound = await timeToFlip([server.url], appUnflagged(next.key), since, { timeoutMs: WINDOW_MS });

    context.annotate(
      `swap → effect: key created ${created.toFixed(0)} ms, revoked ${revoked.toFixed(0)} ms, app rebound ${rebound.toFixed(0)} ms`,
    );
    for (const window of [created, revoked, rebound]) expect(window).toBeLessThan(WINDOW_MS);
  }, 30_000);
});
