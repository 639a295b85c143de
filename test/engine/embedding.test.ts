import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Profile } from "../../src/config/profile.js";
import { compileProfile } from "../../src/engine/compile.js";
import { requestEmbeddings } from "../../src/engine/embedding.js";
import { createEngine } from "../../src/engine/engine.js";
import { builtinGuardrails, type GuardrailRegistry } from "../../src/guardrails/registry.js";
import type { AnyGuardrailDefinition } from "../../src/guardrails/types.js";
import type { Encoder } from "../../src/models/encoder.js";

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
