import type { Encoder } from "../../src/models/encoder.js";

/**
 * A deterministic stand-in for the sentence encoder: each text becomes a unit vector built from
 * its character trigrams, so equal texts are equal and similar texts are similar. For contract
 * tests that need an encoder's shape, not its quality; `calls` records every batch.
 */
export function fakeEncoder(dim = 64): Encoder & { calls: string[][] } {
  const calls: string[][] = [];
  const vector = (text: string) => {
    const v = new Float32Array(dim);
    const t = text.toLowerCase();
    for (let i = 0; i + 3 <= t.length && i < 4096; i++) {
      let h = 2166136261;
      for (let j = i; j < i + 3; j++) h = Math.imul(h ^ t.charCodeAt(j), 16777619);
      v[(h >>> 0) % dim] = (v[(h >>> 0) % dim] ?? 0) + 1;
    }
    const norm = Math.hypot(...v);
    return norm === 0 ? v : v.map((x) => x / norm);
  };
  return {
    calls,
    dim,
    maxTokens: 128,
    load: async () => ({ id: `fake-${dim}`, modelPath: "", loadMs: 0 }),
    embed: async (texts) => {
      calls.push([...texts]);
      return texts.map(vector);
    },
    countTokens: (text) => Math.ceil(text.length / 4),
    close: async () => {},
  };
}
