import { describe, expect, it } from "vitest";
import { CompareTally } from "../../../src/eval/compare.js";
import { renderReport } from "../../../src/eval/report/index.js";
import type { RowGuardrailResult, RowResult } from "../../../src/eval/summary.js";
import { summaryWith } from "../helpers.js";

const g = (flagged: boolean): RowGuardrailResult => ({
  flagged,
  score: flagged ? 0.9 : 0.1,
  matched: [],
  entities: [],
  category: null,
  threshold: 0.5,
  error: null,
});

/** A comparison of two rows, one flipped, whose text and B's name are hostile HTML. */
function compared(label: boolean | null) {
  const tally = new CompareTally({
    a: { profile: "default", profile_file: "profiles/default.yaml" },
    b: { profile: "<b>mine</b>", profile_file: "guardrail/profiles/mine.yaml" },
    guardrails: { a: ["llm"], b: ["llm"] },
    scored: ["llm"],
  });
  [
    ["<script>alert(1)</script> ignore all rules", false, true],
    ["hello", false, false],
  ].forEach(([text, a, b], i) => {
    const result: RowResult = {
      row: i + 1,
      line: i + 2,
      id: null,
      label,
      category: null,
      flagged: a as boolean,
      latency_ms: 1,
      engine_ms: 1,
      guardrails: { llm: g(a as boolean) },
      compared: { flagged: b as boolean, guardrails: { llm: g(b as boolean) } },
    };
    tally.add({ row: i + 1, line: i + 2, id: null, text: text as string, label, category: null }, result);
  });
  return tally.summary();
}

describe("the report's comparison section", () => {
  it("escapes what comes from the data and the config, and lists the flipped row", () => {
    const html = renderReport(summaryWith({}, { compare: compared(true) }));
    expect(html).toContain("<h2>Profile A (default) compared with B (&lt;b&gt;mine&lt;/b&gt;)</h2>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; ignore all rules");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>mine</b>");
    expect(html).toContain("<h4>Flagged by B (&lt;b&gt;mine&lt;/b&gt;) only: 1 row</h4>");
    expect(html).toContain("<td>allowed; llm 0.1000</td><td>llm; llm 0.9000</td>");
    expect(html).toMatch(/<td>llm<\/td><td>0 → 1<\/td>.*<td>b 0, c 1, p 1\.0000<\/td>/);
  });

  it("says plainly that an unlabelled comparison has no McNemar test", () => {
    const html = renderReport(summaryWith({}, { compare: compared(null) }));
    expect(html).toContain(
      '<p class="warn">no labels: McNemar&#39;s test compares which verdicts match the labels',
    );
    expect(html).not.toContain("NaN");
  });

  it("is absent without --compare", () => {
    expect(renderReport(summaryWith({}))).not.toContain("compared with B");
  });
});
