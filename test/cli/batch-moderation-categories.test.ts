import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/index.js";
import { cli } from "./helpers.js";

const samples = new URL("../../datasets/samples/model-responses.jsonl", import.meta.url).pathname;

interface Row {
  readonly id: string;
  readonly guardrails: { content_moderation: { flagged: boolean; score: number; threshold: number } };
}

/** Per-row results of a batch run over the sample responses with one content_moderation profile. */
async function rows(settings: string): Promise<Map<string, Row["guardrails"]["content_moderation"]>> {
  const dir = await mkdtemp(join(tmpdir(), "guardrail-cats-batch-"));
  await mkdir(join(dir, "profiles"));
  await writeFile(
    join(dir, "profiles", "p.yaml"),
    `default: true\nguardrails:\n  content_moderation: ${settings}\n`,
  );
  const out = join(dir, "rows.jsonl");
  const run = await cli([
    "--config",
    dir,
    "batch",
    samples,
    "--mode",
    "output",
    "--concurrency",
    "0",
    "--quiet",
    "--out",
    out,
  ]);
  expect(run.code, run.stderr).not.toBe(2);
  const lines = (await readFile(out, "utf8")).trim().split("\n");
  return new Map(lines.map((l) => JSON.parse(l) as Row).map((r) => [r.id, r.guardrails.content_moderation]));
}

describe("batch with a content_moderation categories list", () => {
  it("scores an unlisted harm 0, so score ≥ threshold is the verdict and the rest score as before", async () => {
    const all = await rows("{ enabled: true }");
    const listed = MODERATION_CATEGORIES.filter((c) => c !== "HATE");
    const noHate = await rows(`{ enabled: true, categories: [${listed.join(", ")}] }`);
    // r006 is the samples' hateful response.
    expect(all.get("r006")).toMatchObject({ flagged: true });
    expect(noHate.get("r006")).toMatchObject({ flagged: false, score: 0 });
    for (const [id, row] of noHate) {
      expect(row.flagged, id).toBe(row.score >= row.threshold);
      if (id !== "r006") expect(row, id).toEqual(all.get(id));
    }
  });
});
