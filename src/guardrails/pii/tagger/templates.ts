import { begin, finish, mix } from "./hash.js";

/*
 * The hashed feature templates of a token (see features.ts for the rest): each mixes its template
 * number with one to three parts, the token's own and its neighbours' word and shape hashes.
 * Templates 3 and 4 (prefixes, suffixes) and the lexicon flags are built in features.ts.
 */

// Where each part sits in the per-token `values` array.
export const WORD = 0;
export const WRITTEN = 1;
export const SHAPE = 2;
export const SHAPE_PREV = 3;
export const SHAPE_NEXT = 4;
export const SHAPE_PREV2 = 5;
export const SHAPE_NEXT2 = 6;
export const PREV = 7;
export const NEXT = 8;
export const PREV2 = 9;
export const NEXT2 = 10;
export const START_CASE = 11;
export const FLAGS_LOW = 12;
const NONE = -1;

/** Feature templates: each a template number and the one to three parts it mixes, in order. */
export interface Templates {
  seeds: Int32Array;
  parts: Int32Array;
}

function templates(list: readonly (readonly number[])[]): Templates {
  return {
    seeds: Int32Array.from(list, ([t]) => begin(t as number) | 0),
    parts: Int32Array.from(list.flatMap(([, a, b = NONE, c = NONE]) => [a as number, b, c])),
  };
}

export const HEAD = templates([
  [1, WORD],
  [2, WRITTEN],
]);
export const BODY = templates([
  [5, SHAPE],
  [6, SHAPE_PREV],
  [7, SHAPE_NEXT],
  [8, SHAPE_PREV2],
  [9, SHAPE_NEXT2],
  [10, SHAPE_PREV, SHAPE, SHAPE_NEXT],
  [11, PREV],
  [12, NEXT],
  [13, PREV2],
  [14, NEXT2],
  [15, PREV, WORD],
  [16, WORD, NEXT],
  [17, START_CASE, SHAPE],
]);
export const TAIL = templates([
  [23, SHAPE, FLAGS_LOW],
  [24, PREV2, PREV],
  [25, NEXT, NEXT2],
]);

/**
 * Hashes a list of templates into rows[c ...] and returns the next free index. One loop for all
 * of them rather than a line per feature: few call sites of mix and finish, which V8 then inlines
 * (a line per feature ran past its inlining budget and took half as long again).
 */
export function hashTemplates(t: Templates, values: Int32Array, rows: Int32Array, c: number): number {
  const { seeds, parts } = t;
  for (let j = 0; j < seeds.length; j++) {
    let h = mix(seeds[j] as number, values[parts[j * 3] as number] as number);
    const b = parts[j * 3 + 1] as number;
    if (b !== NONE) h = mix(h, values[b] as number);
    const d = parts[j * 3 + 2] as number;
    if (d !== NONE) h = mix(h, values[d] as number);
    rows[c++] = finish(h);
  }
  return c;
}
