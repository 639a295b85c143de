import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Profile } from "../../src/config/profile.js";
import { compileProfile } from "../../src/engine/compile.js";
import { MAX_ENCODED_WINDOWS, requestEmbeddings, settledWindows } from "../../src/engine/embedding.js";
import { createEngine } from "../../src/engine/engine.js";
import { builtinGuardrails, type GuardrailRegistry } from "../../src/guardrails/registry.js";
import type { AnyGuardrailDefinition } from "../../src/guardrails/types.js";
import type { Encoder } from "../../src/models/encoder.js";
import { selectWindows } from "../../src/models/window-budget.js";
import { splitIntoWindows } from "../../src/text/windows.js";

/** Counts model runs; every text gets a one-hot vector of its length. */
function countingEncoder() {
  const calls: string[][] = [];
  const encoder: Encoder = {
    dim: 4,
    maxTokens: 128,
    load: async () => ({ id: "fake", modelPath: "", loadMs: 0 }),
    embed: async (texts) => {
      calls.push([...texts]);
      return texts.map((t) => Float32Array.from([t.length % 4 === 0 ? 1 : 0, 1, 0, 0]));
    },
    countTokens: (text) => text.split(" ").length,
    close: async () => {},
  };
  return { encoder, calls };
}

/** A guardrail that reads the shared embedding and reports how many windows it saw. */
const embeddingReader = (base: AnyGuardrailDefinition): AnyGuardrailDefinition => ({
  ...base,
  settings: z.strictObject({ enabled: z.boolean().default(false) }),
  create: () => ({
    check: async (request) => {
      const embedded = await request.embedding?.();
      return { flagged: false, score: embedded?.vectors.length ?? -1 };
    },
  }),
});

/** The same, for the shared sentence pieces. */
const piecesReader = (base: AnyGuardrailDefinition): AnyGuardrailDefinition => ({
  ...embeddingReader(base),
  create: () => ({
    check: async (request) => {
      const pieces = await request.pieces?.();
      return { flagged: false, score: pieces?.vectors.length ?? -1 };
    },
  }),
});

const registry: GuardrailRegistry = {
  ...builtinGuardrails,
  llm: embeddingReader(builtinGuardrails.llm),
  vector: embeddingReader(builtinGuardrails.vector),
};
const piecesRegistry: GuardrailRegistry = {
  ...builtinGuardrails,
  llm: piecesReader(builtinGuardrails.llm),
  vector: piecesReader(builtinGuardrails.vector),
};

/** content_moderation swapped for the embedding reader: what an output check's guardrail is given. */
const outputRegistry: GuardrailRegistry = {
  ...builtinGuardrails,
  content_moderation: embeddingReader(builtinGuardrails.content_moderation),
};
const outputProfile: Profile = {
  name: "output",
  isDefault: true,
  onError: "block",
  file: "/tmp/output.yaml",
  guardrails: Object.fromEntries(
    Object.keys(builtinGuardrails).map((id) => [id, { enabled: id === "content_moderation" }]),
  ) as Profile["guardrails"],
};

const profile: Profile = {
  name: "models",
  isDefault: true,
  onError: "block",
  file: "/tmp/models.yaml",
  guardrails: Object.fromEntries(
    Object.keys(builtinGuardrails).map((id) => [id, { enabled: id === "llm" || id === "vector" }]),
  ) as Profile["guardrails"],
};

describe("the shared per-request embedding", () => {
  it("runs the encoder once per request, however many guardrails read it", async () => {
    const { encoder, calls } = countingEncoder();
    const engine = createEngine({ registry, encoder });
    const body = await engine.inputCheck(
      "one short prompt",
      await compileProfile(profile, registry, encoder),
    );
    expect(calls).toHaveLength(1);
    expect(body.checks.llm).toMatchObject({ enabled: true, score: 1 });
    expect(body.checks.vector).toMatchObject({ enabled: true, score: 1 });
  });

  it("windows a long text instead of cutting it, in the same single call", async () => {
    const { encoder, calls } = countingEncoder();
    const engine = createEngine({ registry, encoder });
    const long = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    const body = await engine.inputCheck(long, await compileProfile(profile, registry, encoder));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.length).toBeGreaterThan(1);
    expect(calls[0]?.join(" ")).toContain("Sentence number 59");
    expect(body.checks.llm).toMatchObject({ score: calls[0]?.length });
  });

  it("never runs the encoder when no enabled guardrail needs it", async () => {
    const { encoder, calls } = countingEncoder();
    const engine = createEngine({ registry, encoder });
    const rulesOnly = {
      ...profile,
      guardrails: { ...profile.guardrails, llm: { enabled: false }, vector: { enabled: false } },
    };
    await engine.inputCheck("hello", await compileProfile(rulesOnly, registry, encoder));
    expect(calls).toHaveLength(0);
  });

  it("shares one pieces call for a text past one window, and makes none for a short one", async () => {
    const { encoder, calls } = countingEncoder();
    const engine = createEngine({ registry: piecesRegistry, encoder });
    const compiled = await compileProfile(profile, piecesRegistry, encoder);
    // The readers here ask for pieces only: deciding on them needs the split, not the windows' vectors.
    const short = await engine.inputCheck("one short prompt. And a second sentence.", compiled);
    expect(calls).toHaveLength(0);
    expect(short.checks.llm).toMatchObject({ score: 0 });
    // 60 sentences of 5 "tokens": 4 windows of ≤ 96 tokens, and 10 pieces of 6 sentences (≤ 32).
    const long = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    const body = await engine.inputCheck(long, compiled);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(10);
    expect(body.checks.llm).toMatchObject({ score: 10 });
    expect(body.checks.vector).toMatchObject({ score: 10 });
  });

  it("makes no pieces for a text of more than 64 of them (the encoder's work stays bounded)", async () => {
    const { encoder, calls } = countingEncoder();
    const engine = createEngine({ registry: piecesRegistry, encoder });
    const huge = Array.from({ length: 420 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    const body = await engine.inputCheck(huge, await compileProfile(profile, piecesRegistry, encoder));
    expect(calls).toHaveLength(0);
    expect(body.checks.llm).toMatchObject({ score: 0 });
  });

  it("embeds windows and pieces in two calls that start together", async () => {
    const { encoder, calls } = countingEncoder();
    const started: number[] = [];
    const pending: (() => void)[] = [];
    // An encoder that answers only once both calls are in: a pieces call that waited for the
    // windows' vectors would never start, and this test would time out.
    const gated: Encoder = {
      ...encoder,
      embed: (texts) => {
        started.push(texts.length);
        const answer = encoder.embed(texts);
        return new Promise((resolve) => {
          pending.push(() => resolve(answer));
          if (pending.length === 2) for (const go of pending) go();
        });
      },
    };
    const long = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    const { embedding, pieces } = requestEmbeddings(gated, long);
    const [windows, fine] = await Promise.all([embedding(), pieces()]);
    expect(started).toEqual([4, 10]);
    expect([windows.vectors.length, fine.vectors.length]).toEqual([4, 10]);
    expect(calls).toHaveLength(2);
  });
});

describe("the encoder budget (MAX_ENCODED_WINDOWS)", () => {
  // 2,000 sentences of 5 "tokens" (the counting encoder splits on spaces): about 110 windows of ≤ 96.
  const huge = Array.from({ length: 2_000 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
  const windowsOf = (text: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ text: `${text} ${i}`, start: i, end: i + 1 }));

  it("embeds every window of a text within the budget", () => {
    const windows = windowsOf("w", MAX_ENCODED_WINDOWS);
    expect(selectWindows(windows, MAX_ENCODED_WINDOWS)).toEqual({ chosen: windows, skipped: [] });
  });

  it("past it, embeds the windows the triage scores highest, in text order, and reports the rest", () => {
    const windows = windowsOf("w", 10);
    const scores = [0, 5, 1, 9, 2, 8, 3, 0, 0, 7];
    const { chosen, skipped } = selectWindows(windows, 4, () => scores);
    expect(chosen.map((w) => w.start)).toEqual([1, 3, 5, 9]);
    expect(skipped.map((w) => w.start)).toEqual([0, 2, 4, 6, 7, 8]);
  });

  it("without a triage, spreads the windows it embeds from the first to the last", () => {
    const { chosen } = selectWindows(windowsOf("w", 100), 5);
    expect(chosen.map((w) => w.start)).toEqual([0, 25, 50, 74, 99]);
  });

  it("sends at most the budget to the encoder, whatever the text's length, and the triage picks", async () => {
    const { encoder, calls } = countingEncoder();
    const needle = "Sentence number 1234 is here.";
    const { embedding } = requestEmbeddings(encoder, huge, {
      triage: (texts) => texts.map((t) => (t.includes(needle) ? 1 : 0)),
    });
    const embedded = await embedding();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(MAX_ENCODED_WINDOWS);
    expect(calls[0]?.some((t) => t.includes(needle))).toBe(true);
    expect(embedded.vectors).toHaveLength(MAX_ENCODED_WINDOWS);
    expect((embedded.skipped?.length ?? 0) + MAX_ENCODED_WINDOWS).toBeGreaterThan(100);
  });

  it("asks the first applicable guardrail that offers a triage", async () => {
    const { encoder, calls } = countingEncoder();
    const asked: number[] = [];
    const triaging: GuardrailRegistry = {
      ...registry,
      llm: {
        ...embeddingReader(builtinGuardrails.llm),
        create: () => ({
          triage: (texts: readonly string[]) => {
            asked.push(texts.length);
            return texts.map((t) => (t.includes("number 1999 ") ? 1 : 0));
          },
          check: async (request) => ({
            flagged: false,
            score: (await request.embedding?.())?.vectors.length,
          }),
        }),
      },
    };
    const engine = createEngine({ registry: triaging, encoder });
    await engine.inputCheck(huge, await compileProfile(profile, triaging, encoder));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeGreaterThan(MAX_ENCODED_WINDOWS);
    expect(calls[0]?.some((t) => t.includes("number 1999 "))).toBe(true);
  });

  it("drops the request's encoder work when its signal aborts", async () => {
    const { encoder } = countingEncoder();
    const seen: (AbortSignal | undefined)[] = [];
    const watching: Encoder = {
      ...encoder,
      embed: (texts, options) => {
        seen.push(options?.signal);
        return encoder.embed(texts);
      },
    };
    const controller = new AbortController();
    await requestEmbeddings(watching, huge, { signal: controller.signal }).embedding();
    expect(seen).toEqual([controller.signal]);
  });
});

describe("the embedding of a chunk of a stream (streamChunk)", () => {
  const ended = "First one ends here. Second one ends too! ";

  it("embeds each sentence that has ended on its own, and not the unfinished one", async () => {
    const { encoder, calls } = countingEncoder();
    const text = `${ended}Third is still going`;
    const e = requestEmbeddings(encoder, text, { streamChunk: true });
    const embedded = await e.embedding();
    expect(embedded.windows.map((w) => w.text)).toEqual(["First one ends here.", "Second one ends too!"]);
    expect(calls).toEqual([["First one ends here.", "Second one ends too!"]]);
    // Asked whole, the text is cut as a one-shot check cuts it.
    expect((await e.wholeEmbedding?.())?.windows.map((w) => w.text)).toEqual([text]);
  });

  it("embeds nothing while the first sentence is unfinished, and offers no whole embedding without one", async () => {
    const { encoder, calls } = countingEncoder();
    const e = requestEmbeddings(encoder, "Still going", { streamChunk: true });
    expect((await e.embedding()).vectors).toHaveLength(0);
    expect(calls).toHaveLength(0);
    expect(requestEmbeddings(encoder, "x").wholeEmbedding).toBeUndefined();
  });

  it("counts the fixed pieces of an unfinished sentence longer than a window, not its last piece", async () => {
    const { encoder } = countingEncoder();
    const runOn = Array.from({ length: 250 }, (_, i) => `w${i}`).join(" ");
    const text = `${ended}${runOn}`;
    const windows = settledWindows(
      text,
      ended.length,
      (t) => splitIntoWindows(t, encoder.countTokens, { sentenceEach: true }),
      encoder.countTokens,
    );
    const pieces = windows.slice(2);
    expect(pieces.length).toBeGreaterThan(0);
    for (const w of pieces) expect(text.slice(w.start, w.end)).toBe(w.text);
    expect((pieces.at(-1) as { end: number }).end).toBeLessThan(text.length);
  });

  it("reads a stream check through the engine: the settled sentences only", async () => {
    const { encoder, calls } = countingEncoder();
    const engine = createEngine({ registry: outputRegistry, encoder });
    const compiled = await compileProfile(outputProfile, outputRegistry, encoder);
    await engine.check("output", "Third is still", compiled, undefined, { context: ended });
    expect(calls).toEqual([["First one ends here.", "Second one ends too!"]]);
  });
});
