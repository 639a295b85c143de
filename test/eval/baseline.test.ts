import { describe, expect, it } from "vitest";
import { type Baseline, baselineWarnings } from "../../src/eval/baseline.js";
import { summaryWith } from "./helpers.js";

const run = summaryWith({}, { data_sha256: "a".repeat(64), profile_file: "guardrail/profiles/default.yaml" });
const like: Baseline = {
  metrics: run.metrics,
  guardrails: {},
  file: "old-name.csv",
  data_sha256: "a".repeat(64),
  profile: "default",
  profile_file: "guardrail/profiles/default.yaml",
};

describe("comparing with a baseline", () => {
  it("says nothing when it ran on the same bytes with the same profile, whatever the file was called", () => {
    expect(baselineWarnings(like, run)).toEqual([]);
  });

  it("warns when the data set's bytes differ", () => {
    expect(baselineWarnings({ ...like, data_sha256: "b".repeat(64) }, run)).toEqual([
      "the baseline ran on other data: old-name.csv (sha256 bbbbbbbbbbbb…), this run prompts.csv (sha256 aaaaaaaaaaaa…)",
    ]);
  });

  it("warns when the profile or its file differ", () => {
    expect(baselineWarnings({ ...like, profile: "strict" }, run)).toEqual([
      "the baseline ran profile strict, this run default",
    ]);
    expect(baselineWarnings({ ...like, profile_file: "profiles/default.yaml" }, run)).toEqual([
      "the baseline's profile came from profiles/default.yaml, this run's from guardrail/profiles/default.yaml",
    ]);
  });

  it("warns that a baseline saved without a hash cannot be checked", () => {
    const { data_sha256: _, ...old } = like;
    expect(baselineWarnings(old, run)[0]).toMatch(/does not record its data set's SHA-256/);
  });
});
