import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BatchSummary } from "../../src/eval/summary.js";
import { fakeLlmRegistry, MODEL_THRESHOLD } from "./fake-llm.js";
import { cli } from "./helpers.js";

const registry = fakeLlmRegistry;

const data = new URL("../fixtures/batch/scored-prompts.csv", import.meta.url).pathname;

async function configCopy(): Promise<{ dir: string; profile: string }> {
  const dir = join(await mkdtemp(join(tmpdir(), "guardrail-tune-")), "config");
  await cp(new URL("../fixtures/batch/scored-config", import.meta.url).pathname, dir, { recursive: true });
  return { dir, profile: join(dir, "profiles", "scored.yaml") };
}

describe("threshold tuning with a score-bearing guardrail", () => {
  it("reports ROC-AUC, PR-AUC and recall at 1% FPR, and a sweep table", async () => {
    const { dir } = await configCopy();
    const run = await cli(["--config", dir, "batch", data, "--json", "--sweep", "--concurrency", "0"], {
      registry,
    });
    expect(run.code).toBe(0);
    const llm = (JSON.parse(run.stdout) as BatchSummary).guardrails.llm;
    // Pairs won by the positives: 4 + 4 + 3 + 2 = 13 of 16.
    expect(llm).toMatchObject({
      scored: 8,
      threshold: 0.5,
      threshold_source: "profile",
      auc: 0.8125,
      // 4 benign rows cannot say what 1% FPR allows (test/eval/too-few.test.ts).
      recall_at_1pct_fpr: null,
      threshold_at_1pct_fpr: null,
      withheld: { recall_at_1pct_fpr: "too few rows: 4 labelled benign rows scored (needs 100)" },
    });
    expect(llm?.pr_auc).toBeCloseTo(0.25 + 0.25 + 0.25 * 0.75 + 0.25 * (4 / 6), 6);
    expect(llm?.sweep?.find((p) => p.threshold === 0.5)).toEqual({
      threshold: 0.5,
      precision: 0.75,
      recall: 0.75,
      fpr: 0.25,
      f1: 0.75,
    });
    expect(llm?.histogram?.positive.reduce((a, b) => a + b)).toBe(4);

    const plain = await cli(
      ["--config", dir, "batch", data, "--sweep", "--target-recall", "1", "--concurrency", "0", "--quiet"],
      { registry },
    );
    expect(plain.stdout).toMatch(/llm threshold sweep \(profile: 0\.5\)/);
    expect(plain.stdout).toMatch(/0\.5 +75\.0% +75\.0% +25\.0% +0\.750/);
    expect(plain.stdout).toMatch(
      /llm: recommended threshold 0\.25 for recall ≥ 1: precision 66\.7%, recall 100\.0%, fpr 50\.0%/,
    );
  });

  it("shows the model's own threshold, marked as such, when the profile sets none", async () => {
    const { dir, profile } = await configCopy();
    await writeFile(profile, (await readFile(profile, "utf8")).replace(/\n {4}threshold: .*/, ""));
    const run = await cli(["--config", dir, "batch", data, "--json", "--sweep", "--concurrency", "0"], {
      registry,
    });
    const llm = (JSON.parse(run.stdout) as BatchSummary).guardrails.llm;
    expect(llm).toMatchObject({ threshold: MODEL_THRESHOLD, threshold_source: "model" });
    // The sweep has the effective threshold as one of its rows, as it has a profile's.
    expect(llm?.sweep?.some((p) => p.threshold === MODEL_THRESHOLD)).toBe(true);
    const plain = await cli(["--config", dir, "batch", data, "--sweep", "--concurrency", "0", "--quiet"], {
      registry,
    });
    expect(plain.stdout).toMatch(/llm +4 +3 +1 +0 +0\.4541 \(model's own\) +0\.813/);
    expect(plain.stdout).toContain("llm threshold sweep (model's own: 0.4541)");
  });

  it("says when no threshold meets the target", async () => {
    const { dir } = await configCopy();
    const run = await cli(
      ["--config", dir, "batch", data, "--target-fpr", "0", "--concurrency", "0", "--json"],
      { registry },
    );
    const rec = (JSON.parse(run.stdout) as BatchSummary).guardrails.llm?.recommendation;
    expect(rec).toMatchObject({ threshold: 0.85, at: { recall: 0.5, fpr: 0 } });
  });

  it("writes the recommended threshold into the profile, keeping its comments, and prints the diff", async () => {
    const { dir, profile } = await configCopy();
    const before = await readFile(profile, "utf8");
    const run = await cli(
      [
        "--config",
        dir,
        "batch",
        data,
        "--target-fpr",
        "0.25",
        "--write-profile",
        "--concurrency",
        "0",
        "--quiet",
      ],
      { registry },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "-    threshold: 0.5 # keep this comment\n+    threshold: 0.6 # keep this comment\n",
    );
    expect(await readFile(profile, "utf8")).toBe(before.replace("threshold: 0.5 #", "threshold: 0.6 #"));
    const again = await cli(["--config", dir, "batch", data, "--json", "--concurrency", "0"], { registry });
    expect((JSON.parse(again.stdout) as BatchSummary).metrics).toMatchObject({ tp: 3, fp: 1, fpr: 0.25 });
  });

  it("refuses a threshold above --write-max-fpr, writing nothing, unless --force", async () => {
    const { dir, profile } = await configCopy();
    const before = await readFile(profile, "utf8");
    const args = [
      "--config",
      dir,
      "batch",
      data,
      "--target-recall",
      "1",
      "--write-profile",
      "--concurrency",
      "0",
    ];
    const refused = await cli([...args, "--quiet"], { registry });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /write-profile: refused, nothing written: llm 0\.\d+ runs at \d+\.\d% false positives on this data, above --write-max-fpr 0\.1\./,
    );
    expect(await readFile(profile, "utf8")).toBe(before);
    const raised = await cli([...args, "--write-max-fpr", "1", "--quiet"], { registry });
    expect(raised.code).toBe(0);
    expect(await readFile(profile, "utf8")).not.toBe(before);
    const { dir: dir2, profile: profile2 } = await configCopy();
    const forced = await cli(["--config", dir2, ...args.slice(2), "--force", "--quiet"], { registry });
    expect(forced.code).toBe(0);
    expect(await readFile(profile2, "utf8")).not.toBe(before);
  });

  it("writes only the guardrails --write-guardrails names, and checks the names", async () => {
    const { dir, profile } = await configCopy();
    const before = await readFile(profile, "utf8");
    const base = [
      "--config",
      dir,
      "batch",
      data,
      "--target-fpr",
      "0.25",
      "--write-profile",
      "--concurrency",
      "0",
      "--quiet",
    ];
    const none = await cli([...base, "--write-guardrails", "vector"], { registry });
    expect(none.stdout).toContain("no guardrail has a recommended threshold");
    expect(await readFile(profile, "utf8")).toBe(before);
    const llm = await cli([...base, "--write-guardrails", "llm"], { registry });
    expect(llm.code).toBe(0);
    expect(await readFile(profile, "utf8")).toBe(before.replace("threshold: 0.5 #", "threshold: 0.6 #"));
    const bad = await cli([...base, "--write-guardrails", "llm,keyword"], { registry });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--write-guardrails: "keyword" is not a guardrail with a threshold; choose from/,
    );
    const alone = await cli(["--config", dir, "batch", data, "--force"], { registry });
    expect(alone.stderr).toBe("error: --force only applies with --write-profile\n");
  });

  it("refuses --write-profile without a target or a config directory", async () => {
    const { dir } = await configCopy();
    const noTarget = await cli(["--config", dir, "batch", data, "--write-profile"], { registry });
    expect(noTarget.stderr).toMatch(/add --target-fpr or --target-recall/);
    const bundled = await cli(["batch", data, "--write-profile", "--target-fpr", "0.1"]);
    expect(bundled.code).toBe(2);
    expect(bundled.stderr).toMatch(/needs a config directory/);
  });
});
