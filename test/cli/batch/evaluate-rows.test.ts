import { describe, expect, it } from "vitest";
import { createRowEvaluator, type RowTask } from "../../../src/cli/batch/evaluate-rows.js";
import type { CompiledProfile } from "../../../src/engine/compile.js";
import type { CheckOutcome, MultiProfileEngine } from "../../../src/engine/engine.js";

// An engine whose checks all wait for one shared call, as the rows of a batch wait for their
// shared encoder call: 40 ms for the batch, however many rows it holds.
function sharedCallEngine(ms: number): MultiProfileEngine {
  let call: Promise<void> | undefined;
  const outcome: CheckOutcome = {
    body: { injection_detected: false, execution_time: 0, checks: {} },
    failures: [],
    flaggedBy: [],
  };
  const check = async () => {
    call ??= new Promise((done) => setTimeout(done, ms));
    await call;
    return outcome;
  };
  return {
    check,
    checkEach: async (_mode, _message, profiles) => Promise.all(profiles.map(check)),
    inputCheck: async () => outcome.body,
    outputCheck: async () => outcome.body,
  };
}

const compiled = { profile: { onError: "block" }, active: [] } as unknown as CompiledProfile;
const rows: RowTask[] = [1, 2, 3, 4].map((row) => ({
  row,
  line: row + 1,
  id: null,
  text: "t",
  label: null,
  category: null,
}));

describe("timing the rows of a batch", () => {
  it("gives each row its share of the batch's engine time, not the batch's wall time", async () => {
    const results = await createRowEvaluator(sharedCallEngine(40), compiled, "input")(rows);
    for (const r of results) {
      expect(r.latency_ms).toBeGreaterThanOrEqual(35);
      expect(r.engine_ms).toBeGreaterThanOrEqual(35 / 4);
      // A quarter of the batch, with room for a slow timer: never the whole batch.
      expect(r.engine_ms).toBeLessThan(r.latency_ms / 2);
    }
  });
});
