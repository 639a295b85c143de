import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BatchSummary } from "../../src/eval/summary.js";
import { cli } from "./helpers.js";

const samples = new URL("../../datasets/samples/pii-texts.csv", import.meta.url).pathname;

async function piiConfig(): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), "guardrail-pii-entities-")), "config");
  await mkdir(join(dir, "profiles"), { recursive: true });
  await writeFile(
    join(dir, "profiles", "pii.yaml"),
    "default: true\nguardrails:\n  pii: { enabled: true }\n",
  );
  return dir;
}

describe("batch on a data set whose category names the PII entity", () => {
  it("gives each entity type's recall and precision, in --json and the terminal", async () => {
    const dir = await piiConfig();
    const json = await cli(["--config", dir, "batch", samples, "--concurrency", "0", "--json"]);
    const summary = JSON.parse(json.stdout) as BatchSummary;
    expect(summary.pii_entities?.EMAIL_ADDRESS).toMatchObject({ rows: 2, found: 2, recall: 1 });
    expect(summary.pii_entities?.US_SSN).toMatchObject({ rows: 1, found: 1, recall: 1, precision: 1 });
    const text = await cli(["--config", dir, "batch", samples, "--concurrency", "0", "--quiet"]);
    expect(text.stdout).toContain("pii by entity type");
    expect(text.stdout).toMatch(/EMAIL_ADDRESS +2 +2 +\d+ +100\.0%/);
  });

  it("leaves it out for a data set not about PII", async () => {
    const dir = await piiConfig();
    const prompts = new URL("../../datasets/samples/injection-prompts.csv", import.meta.url).pathname;
    const json = await cli(["--config", dir, "batch", prompts, "--concurrency", "0", "--json"]);
    expect((JSON.parse(json.stdout) as BatchSummary).pii_entities).toBeNull();
  });
});
