import { describe, expect, it } from "vitest";
import { renderReport } from "../../../src/eval/report/index.js";
import { sampleSummary } from "./sample-summary.js";

const fixed = { generatedAt: new Date("2026-01-02T03:04:05Z") };

describe("renderReport", () => {
  const html = renderReport(sampleSummary(), fixed);

  it("is one self-contained page: no script, no external resource", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\b(src|href)\s*=/i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/@import|url\(/);
    expect(html).toContain("default-src 'none'");
  });

  it("has the headline metrics, the confusion matrix, the tables and latency", () => {
    const s = sampleSummary();
    const m = s.metrics;
    expect(m).not.toBeNull();
    expect(html).toContain("Confusion matrix");
    expect(html).toContain(`<b>${m?.tp}</b><span>true positives`);
    expect(html).toContain(`<b>${m?.fn}</b><span>false negatives`);
    expect(html).toContain(`${((m?.recall ?? 0) * 100).toFixed(1)}%`);
    expect(html).toContain("<h2>Guardrails</h2>");
    expect(html).toContain("<h2>By category</h2>");
    expect(html).toContain(">attack<");
    expect(html).toContain("p95");
    expect(html).toContain("<h3>Engine time per row</h3>");
    expect(html).toMatch(/<span class="k">p50<\/span>.*<span class="v">0\.50 ms<\/span>/);
    expect(html).toContain("A row's own wall time spans its batch");
    expect(html).toContain("2026-01-02T03:04:05Z");
  });

  it("draws ROC, PR and histogram charts for score-bearing guardrails, with the threshold marked", () => {
    expect(html).toContain('aria-label="llm: ROC curve"');
    expect(html).toContain('aria-label="llm: precision-recall curve"');
    expect(html).toContain('aria-label="llm: score histogram by label"');
    expect(html).not.toContain('aria-label="keyword: ROC curve"');
    expect(html).toMatch(/<circle class="op"/);
    expect(html).toMatch(/<text class="mark op"[^>]*>threshold 0\.5</);
    expect(html).toMatch(/<line class="rule op"/);
    expect(html).toMatch(/<circle class="rec"/);
    expect(html).toContain("Recommended threshold <b>");
    expect(html).toContain("Threshold sweep (21 thresholds)");
    // Every coordinate is a finite number inside the 320 × 250 view box.
    for (const match of html.matchAll(/ (?:x|y|cx|cy|x1|x2|y1|y2)="([^"]+)"/g)) {
      const v = Number(match[1]);
      expect(Number.isFinite(v) && v >= 0 && v <= 320).toBe(true);
    }
  });

  it("shows the model's own threshold, marked as such, when the profile sets none", () => {
    const own = renderReport(sampleSummary({ modelThreshold: true }), fixed);
    expect(own).toContain('<td class="n">0.5 (model&#39;s own)</td>');
    expect(own).toContain("threshold 0.5 (model&#39;s own)</span>");
    expect(own).toMatch(/<text class="mark op"[^>]*>threshold 0\.5</);
    expect(html).not.toContain("model&#39;s own");
  });

  it("has each guardrail's figures on its own beside what it caught alone", () => {
    const llm = sampleSummary().guardrails.llm?.standalone;
    expect(html).toContain("<h3>Each guardrail on its own</h3>");
    expect(html).toContain(`<td>llm</td><td class="n">${llm?.tp}</td><td class="n">${llm?.fp}</td>`);
    expect(renderReport(sampleSummary({ labelled: false }), fixed)).not.toContain("on its own");
  });

  it("says in a banner when the baseline ran on other data", () => {
    const s = sampleSummary();
    s.gates = [
      { name: "baseline:f1", metric: "f1", passed: true, actual: 0.9, expected: 0.8, message: "ok" },
    ];
    s.baseline_warnings = ["the baseline ran profile strict, this run default"];
    expect(renderReport(s, fixed)).toContain(
      '<p class="banner">Baseline not comparable: the baseline ran profile strict, this run default.</p>',
    );
  });

  it("lists the worst false positives and false negatives", () => {
    const s = sampleSummary();
    expect(s.examples.false_positives.length).toBeGreaterThan(0);
    expect(html).toContain("<h3>False positives</h3>");
    expect(html).toContain("<h3>False negatives</h3>");
    const first = s.examples.false_negatives[0];
    expect(html).toContain(`${first?.row}<span class="muted"> (line ${first?.line})`);
    // Whose score it is, to 4 decimals: the sample's scores are unrounded.
    expect(html).toContain('<th class="n">highest score (guardrail)</th>');
    expect(html).toContain(`<td class="n">llm ${first?.score?.toFixed(4)}</td>`);
  });

  it("escapes row text, categories and names (XSS)", () => {
    const evil = "<script>alert('x')</script> & \"quoted\"";
    const s = sampleSummary({ texts: () => evil });
    s.file = "<img src=x onerror=alert(1)>.csv";
    s.profile = '"><script>alert(2)</script>';
    const page = renderReport(s, fixed);
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toContain("<img");
    expect(page).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;.csv");
  });

  it("handles an unlabelled run: flag rates and score distributions only", () => {
    const page = renderReport(sampleSummary({ labelled: false }), fixed);
    expect(page).toContain("no labels");
    expect(page).not.toContain("Confusion matrix");
    expect(page).not.toContain("Worst mistakes");
    expect(page).toContain('aria-label="llm: score histogram by label"');
    expect(page).not.toContain('aria-label="llm: ROC curve"');
    expect(page).toContain("unlabelled (200)");
  });

  it("flags an interrupted run and failed gates", () => {
    const s = sampleSummary();
    s.interrupted = true;
    s.gates = [
      { name: "f1>=0.99", metric: "f1", passed: false, actual: 0.8, expected: 0.99, message: "0.8 < 0.99" },
      { name: "fpr<=0.5", metric: "fpr", passed: true, actual: 0.1, expected: 0.5, message: "0.1 ≤ 0.5" },
    ];
    const page = renderReport(s, fixed);
    expect(page).toContain("Interrupted: these figures cover the 200 rows done");
    expect(page).toContain('<li class="fail"><b>FAIL</b> f1&gt;=0.99: 0.8 &lt; 0.99</li>');
    expect(page).toContain('<li class="pass"><b>pass</b>');
  });

  it("survives an empty run", () => {
    const page = renderReport(sampleSummary({ rows: 0 }), fixed);
    expect(page).toContain("0 rows");
    expect(page).not.toContain("NaN");
    expect(page).not.toContain("Infinity");
  });

  it("never prints NaN or Infinity", () => {
    expect(html).not.toContain("NaN");
    expect(html).not.toContain("Infinity");
  });
});
