import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createRowEvaluator, type RowTask } from "../../../src/cli/batch/evaluate-rows.js";
import type { Profile } from "../../../src/config/profile.js";
import { type CompiledProfile, compileProfile } from "../../../src/engine/compile.js";
import { type CheckOutcome, createEngine, type MultiProfileEngine } from "../../../src/engine/engine.js";
import { builtinGuardrails } from "../../../src/guardrails/registry.js";
import type { AnyGuardrailDefinition } from "../../../src/guardrails/types.js";
import { fakeEncoder } from "../../helpers/fake-encoder.js";

// An engine whose checks all wait for one shared call, as the rows of a batch wait for their
// shared encoder call: 40 ms for the batch, however many rows it holds.
function sharedCallEngine(ms: number): MultiProfileEngine {
  let call: Promise<void> | undefined;
  const outcome: CheckOutcome = {
    body: { injection_detected: false, execution_time: 0, checks: {} },
    failures: [],
    flaggedBy: [],
    timings: {},
  };
  const check = async () => {
    call ??= new Promise((done) => setTimeout(done, ms));
    await call;
    return outcome;
  };
  return {
    check,
    checkEach: async (_mode, _message, profiles) => Promise.all(profiles.map(check)),
    checkMessages: () => Promise.reject(new Error("unused")),
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

describe("evaluating rows with a second profile (--compare)", () => {
  // Reads the shared windows' vectors and flags a text of more than `windows` of them.
  const reader = (windows: number): AnyGuardrailDefinition => ({
    ...builtinGuardrails.llm,
    settings: z.strictObject({ enabled: z.boolean().default(false) }),
    create: () => ({
      check: async (request) => {
        const n = (await request.embedding?.())?.vectors.length ?? 0;
        return { flagged: n > windows, score: n };
      },
    }),
  });
  const profile = (name: string): Profile => ({
    name,
    isDefault: false,
    onError: "block",
    file: `/tmp/${name}.yaml`,
    guardrails: Object.fromEntries(
      Object.keys(builtinGuardrails).map((id) => [id, { enabled: id === "llm" }]),
    ) as Profile["guardrails"],
  });
  const texts = [
    "short",
    Array.from({ length: 30 }, (_, i) => `Sentence ${i} has some words in it.`).join(" "),
  ];
  const tasks: RowTask[] = texts.map((text, i) => ({
    row: i + 1,
    line: i + 2,
    id: null,
    text,
    label: i === 1,
    category: null,
  }));

  it("embeds each row's text once for both profiles and returns both verdicts", async () => {
    const a = await compileProfile(profile("a"), { ...builtinGuardrails, llm: reader(1) });
    const b = await compileProfile(profile("b"), { ...builtinGuardrails, llm: reader(99) });
    const alone = fakeEncoder();
    await createRowEvaluator(
      createEngine({ registry: builtinGuardrails, encoder: alone }),
      a,
      "input",
    )(tasks);
    const paired = fakeEncoder();
    const engine = createEngine({ registry: builtinGuardrails, encoder: paired });
    const results = await createRowEvaluator(engine, a, "input", b)(tasks);
    expect(paired.calls).toEqual(alone.calls);
    expect(results.map((r) => [r.flagged, r.compared?.flagged])).toEqual([
      [false, false],
      [true, false],
    ]);
    expect(results[1]?.compared?.guardrails.llm).toMatchObject({
      flagged: false,
      score: results[1]?.guardrails.llm?.score,
    });
    const single = await createRowEvaluator(engine, a, "input")(tasks);
    expect(single.every((r) => r.compared === undefined)).toBe(true);
  });
});
