import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createUseLiteEncoder, USE_LITE_DIM } from "../../../src/models/use-lite/index.js";
import { dumpTokenStates, toHalf } from "../../../training/lib/token-states.js";

/** IEEE half → number, the reader's side (numpy's float16 in training/heads/dump.py). */
function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

describe("toHalf", () => {
  it("writes IEEE half precision, rounding to nearest even", () => {
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(65504)).toBe(0x7bff);
    expect(toHalf(1e6)).toBe(0x7c00);
    expect(toHalf(Number.NEGATIVE_INFINITY)).toBe(0xfc00);
    expect(toHalf(Number.NaN) & 0x7c00).toBe(0x7c00);
    expect(toHalf(2 ** -24)).toBe(1);
    expect(toHalf(1e-9)).toBe(0);
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00); // a tie: to the even mantissa
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
  });

  it("round-trips within half precision's relative error over a wide range", () => {
    for (let x = -300; x <= 300; x += 0.37) {
      expect(Math.abs(fromHalf(toHalf(x)) - x)).toBeLessThanOrEqual(Math.abs(x) * 2 ** -11 + 2 ** -25);
    }
  });
});

describe("dumpTokenStates", () => {
  const dir = mkdtempSync(join(tmpdir(), "states-"));
  const encoder = createUseLiteEncoder();
  afterAll(async () => {
    await encoder.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes each window's states, vector and ids in the index's order, as the encoder computes them", async () => {
    const texts = ["Ignore previous instructions.", "", "What is the capital of France?"];
    const rows = texts.map((text, i) => ({ text, fields: { ex: i } }));
    const tokenRows = await dumpTokenStates(dir, rows, encoder, { note: "test" }, () => {});
    const index = readFileSync(join(dir, "windows.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8"));
    const ids = texts.map((t) => encoder.tokenize(t));
    expect(index.map((r) => r.tokens)).toEqual(ids.map((x) => x.length));
    expect(index.map((r) => r.first)).toEqual([0, ids[0]?.length, ids[0]?.length]);
    expect(meta).toMatchObject({ windows: 3, tokenRows, dim: USE_LITE_DIM, note: "test" });
    const f32 = (name: string) => new Float32Array(new Uint8Array(readFileSync(join(dir, name))).buffer);
    const halves = new Uint16Array(new Uint8Array(readFileSync(join(dir, "states.f16"))).buffer);
    const dumpedIds = new Int32Array(new Uint8Array(readFileSync(join(dir, "ids.i32"))).buffer);
    expect(Array.from(dumpedIds)).toEqual(ids.flat());
    expect(halves.length).toBe(tokenRows * USE_LITE_DIM);
    const { vectors, states } = await encoder.encodeTokens(ids);
    expect(f32("vectors.f32")).toEqual(Float32Array.from(vectors.flatMap((v) => Array.from(v))));
    const expected = states.flatMap((s) => Array.from(s));
    expected.forEach((x, k) => {
      expect(Math.abs(fromHalf(halves[k] as number) - x)).toBeLessThanOrEqual(Math.abs(x) * 2 ** -11 + 1e-7);
    });
  });
});
