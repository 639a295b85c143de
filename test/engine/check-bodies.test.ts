import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createGuardrail } from "../../src/index.js";
import { type CheckBodies, checkBodies } from "../helpers/check-bodies.js";

// The bodies main gave before issue 25 moved work around the encoder (one tokenisation, one vector
// scan, the hand-off to the workers): every verdict must be the same, and every score to within one
// unit of the third decimal. Not to the rendered fourth: another CPU's kernels (AVX2 against
// AVX-512) round the encoder's floats differently, and a score at a rounding edge moves by 0.0001.
// Regenerate with test/fixtures/check-bodies/make.ts only for a change meant to move scores.
/** The fixture with every number replaced by a matcher within 0.0005 of it. */
const withTolerance = (value: unknown): unknown =>
  typeof value === "number"
    ? expect.closeTo(value, 3)
    : Array.isArray(value)
      ? value.map(withTolerance)
      : value !== null && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withTolerance(v)]))
        : value;

const expected = async (precision: string): Promise<CheckBodies> =>
  JSON.parse(await readFile(new URL(`../fixtures/check-bodies/${precision}.json`, import.meta.url), "utf8"));

describe("full profiles' bodies for fixed texts", () => {
  for (const precision of ["fp32", "int8"] as const) {
    it(`are those of the code before, with the ${precision} encoder`, { timeout: 120_000 }, async () => {
      const want = await expected(precision);
      const got = await checkBodies(createGuardrail, precision);
      for (const mode of ["input", "output"] as const) {
        expect(got[mode]).toHaveLength(want[mode].length);
        for (const [i, body] of got[mode].entries())
          expect(body, `${mode} ${i}`).toEqual(withTolerance(want[mode][i]));
      }
    });
  }
});
