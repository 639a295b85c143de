/**
 * The trie under an Aho–Corasick automaton, as typed arrays: nodes numbered breadth-first, the
 * children of a node numbered consecutively in ascending code-unit order.
 */
import { SLICE } from "./steps.js";

export interface Trie {
  readonly count: number;
  /** The code unit on the edge into each node. */
  readonly unit: Uint16Array;
  /** Each node's first child; `first[count]` closes the last node's (empty) range. */
  readonly first: Int32Array;
  readonly parent: Int32Array;
  /** The first pattern ending at each node, or -1; `sameNext[id]` the next equal pattern, or -1. */
  readonly output: Int32Array;
  readonly sameNext: Int32Array;
  readonly lengths: Int32Array;
}

/**
 * The trie, one level at a time: a node holds a range of `order`, the patterns it prefixes;
 * sorting that range by the code unit at the node's depth groups it into the node's children.
 */
export function* buildTrie(patterns: readonly string[]): Generator<void, Trie> {
  // All patterns in one buffer: each is read once per level, and one array is kinder to the
  // cache than 100,000 strings spread over the heap.
  const lengths = new Int32Array(patterns.length);
  let total = 0;
  let nonEmpty = 0;
  for (let id = 0; id < patterns.length; id++) {
    const length = (patterns[id] as string).length;
    lengths[id] = length;
    total += length;
    if (length > 0) nonEmpty++;
  }
  const offsets = new Int32Array(patterns.length);
  const chars = new Uint16Array(total);
  // An empty pattern would "occur" at every position, which no caller wants: it never matches.
  // The sorts keep equal patterns in id order, so duplicates are reported in id order.
  const order = new Int32Array(nonEmpty);
  for (let id = 0, at = 0, k = 0; id < patterns.length; id++) {
    const pattern = patterns[id] as string;
    offsets[id] = at;
    for (let i = 0; i < pattern.length; i++) chars[at + i] = pattern.charCodeAt(i);
    at += pattern.length;
    if (pattern.length > 0) order[k++] = id;
    if (id % 1_024 === 1_023) yield;
  }
  const sortRange = rangeSorter(order, lengths, offsets, chars);
  const capacity = total + 1;
  const unit = new Uint16Array(capacity);
  const first = new Int32Array(capacity + 1);
  const parent = new Int32Array(capacity);
  yield;
  const output = new Int32Array(capacity).fill(-1);
  yield;
  const sameNext = new Int32Array(patterns.length).fill(-1);
  // The patterns under node n: order[from[n]] … order[to[n] - 1].
  const from = new Int32Array(capacity);
  const to = new Int32Array(capacity);
  to[0] = order.length;
  yield;

  let count = 1;
  let work = 0;
  for (let node = 0, depth = 0, levelEnd = 1; node < count; node++) {
    if (node === levelEnd) {
      depth++;
      levelEnd = count;
    }
    first[node] = count;
    const lo = from[node] as number;
    const size = (to[node] as number) - lo;
    const keys = sortRange(lo, size, depth);
    let j = 0;
    // Patterns of exactly this length (key 0) sort first: they end here.
    for (let last = -1; j < size && keys[j] === 0; j++) {
      const id = order[lo + j] as number;
      if (last === -1) output[node] = id;
      else sameNext[last] = id;
      last = id;
    }
    for (let c = -1; j < size; j++) {
      const code = (keys[j] as number) - 1;
      if (code !== c) {
        c = code;
        unit[count] = code;
        parent[count] = node;
        from[count] = lo + j;
        count++;
      }
      to[count - 1] = lo + j + 1;
    }
    work += size + 1;
    if (work >= SLICE) {
      work = 0;
      yield;
    }
  }
  first[count] = count;
  // Copies at the exact size, so the build's worst-case allocations are given back.
  const exactUnit = unit.slice(0, count);
  const exactFirst = first.slice(0, count + 1);
  yield;
  return {
    count,
    unit: exactUnit,
    first: exactFirst,
    parent,
    output: output.slice(0, count),
    sameNext,
    lengths,
  };
}

/**
 * Stable sort of `order[lo … lo + size - 1]` by key: the code unit at `depth` + 1, or 0 for a
 * pattern that ends there. Returns the keys in their sorted order. A counting sort when the
 * keys span a small interval (a few letters of one script, the usual case); else a native sort
 * of `key × scale + position`, which keeps ties in order.
 */
function rangeSorter(order: Int32Array, lengths: Int32Array, offsets: Int32Array, chars: Uint16Array) {
  let keys = new Int32Array(order.length);
  let sortedKeys = new Int32Array(order.length);
  const ids = new Int32Array(order.length);
  const counts = new Int32Array(0x10002);
  let numeric: Float64Array | undefined;
  return (lo: number, size: number, depth: number): Int32Array => {
    let sorted = true;
    let min = 0x10001;
    let max = 0;
    for (let j = 0, previous = -1; j < size; j++) {
      const id = order[lo + j] as number;
      const k = depth === lengths[id] ? 0 : (chars[(offsets[id] as number) + depth] as number) + 1;
      keys[j] = k;
      if (k < previous) sorted = false;
      previous = k;
      if (k < min) min = k;
      if (k > max) max = k;
    }
    if (sorted) return keys;
    ids.set(order.subarray(lo, lo + size));
    const span = max - min + 1;
    if (span <= 4 * size + 256) {
      counts.fill(0, 0, span + 1);
      for (let j = 0; j < size; j++) {
        const bucket = (keys[j] as number) - min + 1;
        counts[bucket] = (counts[bucket] as number) + 1;
      }
      for (let b = 1; b <= span; b++) counts[b] = (counts[b] as number) + (counts[b - 1] as number);
      for (let j = 0; j < size; j++) {
        const k = keys[j] as number;
        const at = counts[k - min] as number;
        order[lo + at] = ids[j] as number;
        sortedKeys[at] = k;
        counts[k - min] = at + 1;
      }
    } else {
      numeric ??= new Float64Array(order.length);
      const scale = 2 ** Math.ceil(Math.log2(size));
      for (let j = 0; j < size; j++) numeric[j] = (keys[j] as number) * scale + j;
      const view = numeric.subarray(0, size).sort();
      for (let j = 0; j < size; j++) {
        const position = (view[j] as number) % scale;
        order[lo + j] = ids[position] as number;
        sortedKeys[j] = keys[position] as number;
      }
    }
    [keys, sortedKeys] = [sortedKeys, keys];
    return keys;
  };
}
