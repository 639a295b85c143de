import { describe, expect, it } from "vitest";
import { renderVerdict } from "../../src/cli/check-format.js";
import { paint } from "../../src/cli/output.js";
import type { CheckOutcome } from "../../src/engine/engine.js";

const NOTE =
  "no sentence windows to embed (empty or blank text): the n-gram fallback scored it, against its own threshold";

const outcome: CheckOutcome = {
  body: {
    injection_detected: false,
    execution_time: 0.001,
    checks: {
      llm: { enabled: true, score: 0.1246, threshold: 0.5895 },
      vector: { enabled: true, score: 0 },
    },
  },
  failures: [],
  flaggedBy: [],
  timings: {},
  details: { llm: { threshold: 0.5895, note: NOTE }, vector: { threshold: 0.8 } },
};

describe("the terminal view of a check", () => {
  const text = renderVerdict(outcome, { mode: "input", profile: "default", onError: "block" }, paint(false));

  it("shows the threshold vector was judged against, which the body leaves out", () => {
    expect(text).toMatch(/^ {2}vector +clean +score 0\.000 \(threshold 0\.800\)$/m);
  });

  it("says why the llm's threshold is the n-gram fallback's", () => {
    expect(text).toMatch(
      new RegExp(
        `^ {2}llm +clean +score 0\\.125 \\(threshold 0\\.590\\); ${NOTE.replace(/[()]/g, "\\$&")}$`,
        "m",
      ),
    );
  });
});
