/**
 * The `llm` model's cheap features of each dumped window, for the Python heads that combine them
 * with the encoder's states (training/heads/): the hashed n-grams of the window's folded text
 * (src/guardrails/llm/features/ngrams.ts, the runtime's own code) and its 13 cues.
 *
 * Files beside the dump: `ngrams.i32` (bucket indices) and `ngrams.f32` (their values), every
 * window's features one after another; `ngrams.off.i32` (where each window's begin, plus the end);
 * `cues.f32` (13 per window).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CUE_COUNT, cues } from "../../src/guardrails/llm/features/cues.js";
import { featurize } from "../../src/guardrails/llm/features/ngrams.js";
import { foldText } from "../../src/text/normalize.js";

export function dumpWindowFeatures(dir: string, texts: readonly string[], dim: number): number {
  const offsets = new Int32Array(texts.length + 1);
  const index: Int32Array[] = [];
  const value: Float32Array[] = [];
  const cueRows = new Float32Array(texts.length * CUE_COUNT);
  let at = 0;
  texts.forEach((text, i) => {
    const folded = foldText(text);
    const x = featurize(folded, dim);
    index.push(x.index);
    value.push(x.value);
    offsets[i] = at;
    at += x.index.length;
    cueRows.set(cues(text, folded), i * CUE_COUNT);
  });
  offsets[texts.length] = at;
  const flat = <T extends Int32Array | Float32Array>(parts: T[], make: (n: number) => T): T => {
    const out = make(at);
    let k = 0;
    for (const p of parts) {
      out.set(p, k);
      k += p.length;
    }
    return out;
  };
  const write = (name: string, data: Int32Array | Float32Array) =>
    writeFileSync(join(dir, name), new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  write(
    "ngrams.i32",
    flat(index, (n) => new Int32Array(n)),
  );
  write(
    "ngrams.f32",
    flat(value, (n) => new Float32Array(n)),
  );
  write("ngrams.off.i32", offsets);
  write("cues.f32", cueRows);
  return at;
}
