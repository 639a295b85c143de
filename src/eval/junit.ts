import { describeScore } from "./examples.js";
import type { BatchSummary, GateResult, RowExample } from "./summary.js";

// XML 1.0 allows only these characters; anything else in a prompt would make the file unreadable.
// https://www.w3.org/TR/xml/#charsets
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
const INVALID_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join("");

function gateCase(gate: GateResult): string {
  const open = `    <testcase${attrs({ classname: "guardrail.batch.gates", name: gate.name })}`;
  if (gate.passed) return `${open}/>`;
  return `${open}>\n      <failure${attrs({ message: gate.message, type: "gate" })}>${xmlEscape(gate.message)}</failure>\n    </testcase>`;
}

function rowCase(row: RowExample, kind: "false positive" | "false negative"): string {
  const name = `row ${row.row} (line ${row.line})${row.id ? ` id ${row.id}` : ""}`;
  const by = row.guardrails.length > 0 ? `flagged by ${row.guardrails.join(", ")}` : "not flagged";
  const message = `${kind}: ${by}${row.score === null ? "" : `; highest score: ${describeScore(row)}`}`;
  return [
    `    <testcase${attrs({ classname: `guardrail.batch.rows${row.category ? `.${row.category}` : ""}`, name })}>`,
    `      <failure${attrs({ message, type: kind })}>${xmlEscape(row.text)}</failure>`,
    "    </testcase>",
  ].join("\n");
}

function suite(name: string, cases: string[], failures: number, seconds: number): string {
  const head = `  <testsuite${attrs({ name, tests: cases.length, failures, errors: 0, skipped: 0, time: seconds })}>`;
  return cases.length === 0 ? `${head}</testsuite>` : `${head}\n${cases.join("\n")}\n  </testsuite>`;
}

/** A JUnit XML report: one test case per gate, and optionally one failed case per misclassified row. */
export function junitXml(
  summary: BatchSummary,
  misclassified: readonly { row: RowExample; kind: "false positive" | "false negative" }[] = [],
): string {
  const seconds = Math.round(summary.elapsed_ms) / 1000;
  const gates = summary.gates.map(gateCase);
  const gateFailures = summary.gates.filter((g) => !g.passed).length;
  const suites = [suite("guardrail batch gates", gates, gateFailures, seconds)];
  if (misclassified.length > 0) {
    const rows = misclassified.map((m) => rowCase(m.row, m.kind));
    suites.push(suite("guardrail batch misclassified rows", rows, rows.length, seconds));
  }
  const failures = gateFailures + misclassified.length;
  const tests = gates.length + misclassified.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: `guardrail batch ${summary.file}`, tests, failures, errors: 0, time: seconds })}>`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
