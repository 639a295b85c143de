import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { BatchSummary, RowResult } from "../../src/eval/summary.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import type { AnyGuardrailDefinition } from "../../src/guardrails/types.js";
import { cli } from "./helpers.js";

const labelled = new URL("../fixtures/batch/labelled-prompts.csv", import.meta.url).pathname;
const unlabelled = new URL("../fixtures/batch/unlabelled.csv", import.meta.url).pathname;
const tmp = () => mkdtemp(join(tmpdir(), "guardrail-compare-"));

// Two rule-only profiles cut from the bundled default, so the figures stay put when a model is
// retrained: "default" runs keyword and pii, "wide" keyword and regex. On the fixture pii's card
// number (p5) is default's one false positive, and wide has none.
let config = "";
beforeAll(async () => {
  config = await tmp();
  const bundled = await readFile(new URL("../../profiles/default.yaml", import.meta.url), "utf8");
  const models = (Object.values(builtinGuardrails) as AnyGuardrailDefinition[])
    .filter((g) => g.usesEncoder === true)
    .map((g) => g.id);
  const without = (text: string, ids: string[]) =>
    ids.reduce((t, id) => t.replace(new RegExp(`(\\n  ${id}:\\n {4}enabled: )true`), "$1false"), text);
  await mkdir(join(config, "profiles"));
  await writeFile(join(config, "profiles", "default.yaml"), without(bundled, [...models, "regex"]));
  const wide = without(bundled, [...models, "pii"]).replace(/^name: default$/m, "name: wide");
  await writeFile(join(config, "profiles", "wide.yaml"), wide.replace(/^default: true$/m, "default: false"));
});
const batch = (args: string[]) => cli(["--config", config, "batch", ...args]);
/** On this thread, with no progress lines. */
const here = ["--quiet", "--concurrency", "0"];

describe("guardrail batch --compare", () => {
  // Worker threads each load the config and the guardrails: 7 s here, 45 s on a loaded machine.
  it("judges both profiles on the same rows: --json (on worker threads), --out and the report", async () => {
    const dir = await tmp();
    const report = join(dir, "compare.html");
    const workers = ["--concurrency", "2"];
    const out = join(dir, "rows.jsonl");
    const outputs = ["--report", report, "--out", out];
    const json = await batch([labelled, "--compare", "wide", "--json", ...outputs, ...workers]);
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const s = JSON.parse(json.stdout) as BatchSummary;
    // The summary's own figures stay the first profile's.
    expect(s.profile).toBe("default");
    expect(s.metrics).toMatchObject({ tp: 3, fp: 1 });
    const c = s.compare;
    expect(c).toMatchObject({ a: { profile: "default" }, b: { profile: "wide" }, rows: 8, labelled: 8 });
    expect(c?.b.profile_file).toMatch(/profiles\/wide\.yaml$/);
    expect(c?.overall.a.metrics).toMatchObject({ tp: 3, fp: 1, tn: 3, fn: 1 });
    expect(c?.overall.b.metrics).toMatchObject({ tp: 3, fp: 0, tn: 4, fn: 1, precision: 1 });
    expect(c?.overall.delta).toMatchObject({ flagged: -1, fp: -1, tn: 1, precision: 0.25, fpr: -0.25 });
    expect(c?.mcnemar).toEqual({ b: 0, c: 1, p_value: 1 });
    expect(c?.guardrails.keyword?.mcnemar).toEqual({ b: 0, c: 0, p_value: 1 });
    expect(c?.guardrails.pii).toMatchObject({ b: null, mcnemar: null, a: { flagged: 1 } });
    expect(c?.guardrails.regex).toMatchObject({ a: null, b: { flagged: 2 } });
    expect(c?.flipped.b_only).toEqual({ count: 0, rows: [] });
    // The worker sent the flipped row's text back though default got it wrong only by pii.
    expect(c?.flipped.a_only.rows).toEqual([
      expect.objectContaining({
        id: "p5",
        label: false,
        text: "My card is 4111 1111 1111 1111, is it valid?",
        a: expect.objectContaining({ flagged: true, guardrails: ["pii"] }),
        b: expect.objectContaining({ flagged: false, guardrails: [] }),
      }),
    ]);

    // --out's JSON Lines carry B's verdict beside A's.
    const rows = (await readFile(out, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as RowResult);
    expect(rows.map((r) => [r.id, r.flagged, r.compared?.flagged])[4]).toEqual(["p5", true, false]);
    expect(rows[4]?.compared?.guardrails.regex).toMatchObject({ flagged: false });

    const html = await readFile(report, "utf8");
    expect(html).toContain("<h2>Profile A (default) compared with B (wide)</h2>");
    expect(html).toContain('<td>Δ B − A</td><td class="n">−1</td>');
    expect(html).toContain("0 rows only default judged right, 1 only wide: no significant difference");
    expect(html).toContain("<h4>Flagged by A (default) only: 1 row</h4>");
    expect(html).toContain('<div class="text">My card is 4111 1111 1111 1111, is it valid?</div>');
  }, 120_000);

  it("prints the comparison after the summary on the terminal", async () => {
    const text = await batch([labelled, "--compare", "wide", ...here]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("default vs wide on the same 8 rows (8 labelled); the gates judge default");
    expect(text.stdout).toMatch(
      /Δ wide − default +−1 +0 +−1 +\+1 +0 +\+25\.0 pp +0\.0 pp +−25\.0 pp +\+0\.107/,
    );
    expect(text.stdout).toMatch(/pii +1 → – .*only default/);
    expect(text.stdout).toContain("flagged by default only: 1 row\n");
    expect(text.stdout).toMatch(/\n5 +p5 +− +pii +allowed +My card is 4111/);
  });

  it("keeps the gates on the first profile: the second is for comparison", async () => {
    // default's precision is 0.75, wide's 1.
    const gate = [...here, "--fail-under", "precision=0.9"];
    const a = await batch([labelled, "--compare", "wide", ...gate]);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain("gate failed: precision>=0.9");
    const b = await batch([labelled, "--profile", "wide", "--compare", "default", ...gate]);
    expect(b.code).toBe(0);
  });

  it("without labels lists the flips and says McNemar's test needs them", async () => {
    const run = await batch([unlabelled, "--compare", "wide", "--json", "--concurrency", "0"]);
    expect(run.code).toBe(0);
    const c = (JSON.parse(run.stdout) as BatchSummary).compare;
    expect(c).toMatchObject({ rows: 3, labelled: 0, mcnemar: null });
    expect(c?.mcnemar_note).toMatch(/^no labels: .*needs a label column/);
    expect(c?.overall.a.metrics).toBeNull();
    const text = await batch([unlabelled, "--compare", "wide", ...here]);
    expect(text.stdout).toContain("no labels: McNemar's test compares which verdicts match the labels");
  });

  it("refuses the same profile, an unknown one, and --write-profile, before any row runs", async () => {
    const same = await batch([labelled, "--compare", "default"]);
    expect(same.code).toBe(2);
    expect(same.stderr).toBe(
      "error: --compare default: that is the profile already being evaluated; name a different profile to compare with\n",
    );
    const unknown = await batch([labelled, "--compare", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('error: --compare: unknown profile "nope" (known: default, wide)\n');
    const write = await batch([labelled, "--compare", "wide", "--write-profile", "--target-fpr", "0.1"]);
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(
      /^error: --write-profile and --compare: a run writes one profile's thresholds/,
    );
  });
});
