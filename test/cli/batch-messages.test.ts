import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { BatchSummary } from "../../src/eval/summary.js";
import { cli } from "./helpers.js";

const fixture = (name: string) => new URL(`../fixtures/batch/${name}`, import.meta.url).pathname;

// Rules only (keyword, regex, pii of the default profile), so the figures stay put.
let config = "";
beforeAll(async () => {
  config = await mkdtemp(join(tmpdir(), "guardrail-batch-messages-"));
  let profile = await readFile(new URL("../../profiles/default.yaml", import.meta.url), "utf8");
  for (const id of ["llm", "vector"])
    profile = profile.replace(new RegExp(`(\\n  ${id}:\\n {4}enabled: )true`), "$1false");
  await mkdir(join(config, "profiles"));
  await writeFile(join(config, "profiles", "default.yaml"), profile);
});

describe("guardrail batch on JSON Lines rows with messages", () => {
  it("checks each row's conversation as input-check does, and reports a bad one as invalid", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "guardrail-batch-messages-out-")), "rows.jsonl");
    const run = await cli([
      "--config",
      config,
      "batch",
      fixture("conversations.jsonl"),
      "--skip-invalid",
      "--json",
      "--out",
      out,
    ]);
    const summary = JSON.parse(run.stdout) as BatchSummary;
    expect(summary).toMatchObject({ rows: 3, flagged: 2, skipped: 1 });
    expect(summary.metrics).toMatchObject({ tp: 2, fp: 0, tn: 1, fn: 0 });
    const rows = (await readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            id: string;
            flagged: boolean;
            guardrails: Record<string, { flagged: boolean }>;
          },
      );
    expect(rows.map((r) => [r.id, r.flagged])).toEqual([
      ["c1", true],
      ["c2", false],
      ["c3", true],
    ]);
    // The system prompt's words are not scanned; the tool call's argument is, by pii.
    expect(rows[1]?.guardrails.keyword?.flagged).toBe(false);
    expect(rows[2]?.guardrails.pii?.flagged).toBe(true);
  });

  it("names a row's bad messages in the server's words", async () => {
    const run = await cli(["--config", config, "batch", fixture("conversations.jsonl"), "--json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "row 4 (line 4): column messages: messages[0].role: must be one of system, developer, user, assistant, tool",
    );
  });
});
