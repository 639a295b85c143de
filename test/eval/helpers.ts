import type { BatchSummary, Provenance } from "../../src/eval/summary.js";

/** Where a test run says its data and profile came from: the bundled default profile. */
export const BUNDLED_PROVENANCE: Provenance = {
  data_sha256: "0".repeat(64),
  profile_file: "profiles/default.yaml",
  config_dir: null,
  config_source: "bundled",
};

/** A summary with the given metrics and nothing else of note. */
export function summaryWith(
  metrics: Partial<NonNullable<BatchSummary["metrics"]>>,
  extra: Partial<BatchSummary> = {},
) {
  const summary: BatchSummary = {
    version: 1,
    file: "prompts.csv",
    mode: "input",
    profile: "default",
    ...BUNDLED_PROVENANCE,
    rows: 100,
    labelled: 100,
    skipped: 0,
    flagged: 10,
    flag_rate: 0.1,
    errors: 0,
    interrupted: false,
    metrics: {
      tp: 9,
      fp: 1,
      tn: 85,
      fn: 5,
      precision: 0.9,
      recall: 0.64,
      f1: 0.75,
      accuracy: 0.94,
      fpr: 0.01,
      fnr: 0.36,
      ...metrics,
    },
    guardrails: {},
    categories: {},
    pii_entities: null,
    latency: { p50_ms: 1, p95_ms: 2, p99_ms: 3, mean_ms: 1, max_ms: 4 },
    engine_ms_per_row: { p50_ms: 0.5, p95_ms: 1, p99_ms: 1.5, mean_ms: 0.5, max_ms: 2 },
    throughput_rows_per_s: 1000,
    elapsed_ms: 100,
    concurrency: 2,
    examples: { false_positives: [], false_negatives: [] },
    gates: [],
    baseline_warnings: [],
    ...extra,
  };
  return summary;
}
