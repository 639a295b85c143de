/**
 * Aho–Corasick multi-pattern search (Aho & Corasick, "Efficient string matching", CACM 1975):
 * every occurrence of every pattern in one left-to-right pass, in O(text + matches) whatever
 * the number of patterns. Generic over UTF-16 strings; knows nothing about words or folding.
 */
export interface AhoCorasick {
  readonly patternCount: number;
  /** Calls `onMatch` for every occurrence, overlapping ones included, ordered by `end`. */
  search(text: string, onMatch: (pattern: number, start: number, end: number) => void): void;
}

// Transitions of every node live in one Map keyed by node * 2^16 + code unit: one object instead
// of one Map per node keeps construction and lookups cheap with thousands of patterns.
const key = (node: number, unit: number) => node * 0x10000 + unit;

export function createAhoCorasick(patterns: readonly string[]): AhoCorasick {
  const next = new Map<number, number>();
  const depth: number[] = [0];
  const fail: number[] = [0];
  // `output[n]`: patterns ending exactly at node n; `dict[n]`: nearest node on n's fail chain
  // with an output (-1 if none), so reporting never walks nodes that end no pattern.
  const output: number[][] = [[]];
  const dict: number[] = [-1];

  patterns.forEach((pattern, id) => {
    // An empty pattern would "occur" at every position, which no caller wants: it never matches.
    if (pattern.length === 0) return;
    let node = 0;
    for (let i = 0; i < pattern.length; i++) {
      const k = key(node, pattern.charCodeAt(i));
      let child = next.get(k);
      if (child === undefined) {
        child = depth.length;
        next.set(k, child);
        depth.push(i + 1);
        fail.push(0);
        output.push([]);
        dict.push(-1);
      }
      node = child;
    }
    output[node]?.push(id);
  });

  // Breadth-first, so a node's fail link (a strictly shallower node) is final before its children.
  const children: number[][] = depth.map(() => []);
  const units: number[][] = depth.map(() => []);
  for (const [k, child] of next) {
    const parent = Math.floor(k / 0x10000);
    children[parent]?.push(child);
    units[parent]?.push(k % 0x10000);
  }
  const queue = [...(children[0] ?? [])];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] as number;
    const kids = children[node] ?? [];
    kids.forEach((child, i) => {
      const unit = units[node]?.[i] as number;
      let f = fail[node] as number;
      let target = next.get(key(f, unit));
      while (target === undefined && f !== 0) {
        f = fail[f] as number;
        target = next.get(key(f, unit));
      }
      const link = target ?? 0;
      fail[child] = link;
      dict[child] = (output[link]?.length ?? 0) > 0 ? link : (dict[link] as number);
      queue.push(child);
    });
  }

  return {
    patternCount: patterns.length,
    search(text, onMatch) {
      let node = 0;
      for (let i = 0; i < text.length; i++) {
        const unit = text.charCodeAt(i);
        let target = next.get(key(node, unit));
        while (target === undefined && node !== 0) {
          node = fail[node] as number;
          target = next.get(key(node, unit));
        }
        node = target ?? 0;
        for (let n = (output[node]?.length ?? 0) > 0 ? node : (dict[node] as number); n > 0; ) {
          const end = i + 1;
          const start = end - (depth[n] as number);
          for (const id of output[n] ?? []) onMatch(id, start, end);
          n = dict[n] as number;
        }
      }
    },
  };
}
