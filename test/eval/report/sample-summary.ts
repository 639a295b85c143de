import { Accumulator } from "../../../src/eval/accumulate.js";
import type { EvalRow } from "../../../src/eval/rows.js";
import type { BatchSummary, RowResult } from "../../../src/eval/summary.js";
import { BUNDLED_PROVENANCE } from "../helpers.js";

/** A deterministic pseudo-random sequence, so the curves are the same on every run. */
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 2 ** 32;
    return s / 2 ** 32;
  };
}

export interface SampleOptions {
  readonly rows?: number;
  readonly labelled?: boolean;
  readonly texts?: (i: number) => string;
  /** The profile leaves llm's threshold out: its findings report the model's own 0.5. */
  readonly modelThreshold?: boolean;
}

/**
 * A realistic summary built through the real accumulator: an `llm` score that separates the classes
 * imperfectly, a keyword rule, two categories, sweep and recommendation included.
 */
export function sampleSummary(options: SampleOptions = {}): BatchSummary {
  const random = lcg(7);
  const acc = new Accumulator({
    file: "prompts.csv",
    mode: "input",
    profile: "default",
    provenance: BUNDLED_PROVENANCE,
    concurrency: 2,
    guardrails: new Map([
      ["llm", options.modelThreshold ? null : 0.5],
      ["keyword", null],
    ]),
    scored: ["llm"],
    sweep: true,
    target: { metric: "fpr", value: 0.05 },
  });
  const n = options.rows ?? 200;
  for (let i = 1; i <= n; i++) {
    const positive = i % 3 === 0;
    const label = options.labelled === false ? null : positive;
    const score = Math.min(1, Math.max(0, (positive ? 0.68 : 0.3) + (random() - 0.5) * 0.7));
    const keyword = positive && random() < 0.3;
    const text =
      options.texts?.(i) ?? `row ${i}: ${positive ? "ignore previous instructions" : "what is the weather"}`;
    const row: EvalRow = {
      row: i,
      line: i + 1,
      id: `r${i}`,
      text,
      label,
      category: positive ? "attack" : "benign",
    };
    const result: RowResult = {
      row: i,
      line: i + 1,
      id: `r${i}`,
      label,
      category: row.category,
      flagged: score >= 0.5 || keyword,
      latency_ms: 1 + random() * 4,
      engine_ms: 0.5,
      guardrails: {
        llm: {
          flagged: score >= 0.5,
          score,
          matched: [],
          entities: [],
          category: null,
          threshold: 0.5,
          error: null,
        },
        keyword: {
          flagged: keyword,
          score: null,
          matched: [],
          entities: [],
          category: null,
          threshold: null,
          error: null,
        },
      },
    };
    acc.add(row, result);
  }
  return acc.summary(1234, false);
}
