/**
 * A dump of the encoder's token states for a training pool, for the heads trained in Python over
 * them (training/heads/): the states are ~100× the size of a sentence vector, too many to keep in
 * the JSON vector cache, and torch reads a flat binary file directly.
 *
 * Layout of `<dir>`:
 * - `windows.jsonl`: one line per window: its row's fields (as the dumping script gives them), the
 *   window's index in its text, its token count and its first row in the state file.
 * - `states.f16`: every window's token rows, float16, 512 per row, in `windows.jsonl` order.
 * - `vectors.f32`: every window's sentence vector (512 float32), the same order.
 * - `ids.i32`: every window's token ids as the model reads them (at most 128), int32, one per
 *   state row: what a fine-tune of the encoder itself feeds it (training/heads/finetune.py).
 * - `meta.json`: the encoder id, the dimension, the counts, and whatever the script adds.
 */
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { UseLiteEncoder } from "../../src/models/use-lite/index.js";

export interface WindowRow {
  /** The window's text: what the encoder reads. */
  text: string;
  /** Written as they are to windows.jsonl (labels, source, family…). */
  fields: Record<string, unknown>;
}

/** float32 → IEEE half, round to nearest even; Node 20 has no Float16Array. */
export function toHalf(value: number): number {
  const f32 = new Float32Array([value]);
  const x = new Uint32Array(f32.buffer)[0] as number;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rest > mid || (rest === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa lands in the exponent: 65520 rounds up to infinity, as IEEE says.
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
  return sign | half;
}

/** Encodes `rows` `chunk` at a time and writes the dump; returns the number of token rows. */
export async function dumpTokenStates(
  dir: string,
  rows: readonly WindowRow[],
  encoder: UseLiteEncoder,
  meta: Record<string, unknown>,
  log: (message: string) => void,
  chunk = 256,
): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const info = await encoder.load();
  const states = createWriteStream(join(dir, "states.f16"));
  const vectors = createWriteStream(join(dir, "vectors.f32"));
  const index = createWriteStream(join(dir, "windows.jsonl"));
  const tokenIds = createWriteStream(join(dir, "ids.i32"));
  const write = (stream: NodeJS.WritableStream, data: Uint8Array) =>
    new Promise<void>((resolve) => (stream.write(data) ? resolve() : stream.once("drain", resolve)));
  let tokenRows = 0;
  for (let from = 0; from < rows.length; from += chunk) {
    const part = rows.slice(from, from + chunk);
    // Each window tokenised once: what the model reads is what ids.i32 records.
    const ids = part.map((r) => encoder.tokenize(r.text).slice(0, encoder.maxTokens));
    const encoded = await encoder.encodeTokens(ids);
    for (const [i, row] of part.entries()) {
      const s = encoded.states[i] as Float32Array;
      const half = new Uint16Array(s.length);
      for (let k = 0; k < s.length; k++) half[k] = toHalf(s[k] as number);
      const tokens = s.length / encoder.dim;
      await write(states, new Uint8Array(half.buffer));
      await write(vectors, new Uint8Array((encoded.vectors[i] as Float32Array).slice().buffer));
      await write(tokenIds, new Uint8Array(Int32Array.from(ids[i] ?? []).buffer));
      await write(index, Buffer.from(`${JSON.stringify({ ...row.fields, tokens, first: tokenRows })}\n`));
      tokenRows += tokens;
    }
    if ((from / chunk) % 20 === 0) log(`${Math.min(from + chunk, rows.length)} / ${rows.length} windows`);
  }
  await Promise.all([states, vectors, index, tokenIds].map((s) => new Promise((r) => s.end(r))));
  writeFileSync(
    join(dir, "meta.json"),
    `${JSON.stringify({ encoder: info.id, dim: encoder.dim, windows: rows.length, tokenRows, ...meta }, null, 2)}\n`,
  );
  return tokenRows;
}
