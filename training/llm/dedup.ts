import { words } from "../../src/guardrails/llm/features/ngrams.js";
import { hashRange } from "../../src/text/hash.js";
import { foldText } from "../../src/text/normalize.js";
import type { Example } from "./example.js";

// MinHash (Broder 1997) over word 3-shingles, banded LSH: 16 bands × 4 rows finds pairs from about
// Jaccard 0.5, which the exact check below then confirms.
const HASHES = 64;
const ROWS = 4;
/** Texts this similar are one template family: they stay on one side of the split. */
export const FAMILY_JACCARD = 0.5;
/** Texts this similar are the same text: only the first is kept. */
export const DUPLICATE_JACCARD = 0.85;

export interface DedupResult {
  kept: Example[];
  /** Template family of each kept example (a union of its group and its near neighbours'). */
  family: Map<Example, string>;
  dropped: { duplicates: number; conflicts: number };
}

function shingles(text: string): Set<number> {
  const w = words(foldText(text));
  const out = new Set<number>();
  if (w.length < 3) out.add(hashRange(7, w.join(" "), 0, w.join(" ").length));
  for (let i = 0; i + 3 <= w.length; i++) {
    const s = `${w[i]} ${w[i + 1]} ${w[i + 2]}`;
    out.add(hashRange(7, s, 0, s.length));
  }
  return out;
}

function jaccard(a: Set<number>, b: Set<number>): number {
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both || 1);
}

/** Removes exact and near duplicates (by `key`) and merges near neighbours into template families. */
export function dedup(examples: Example[]): DedupResult {
  const parent = new Map<string, string>();
  const find = (g: string): string => {
    let root = g;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(g, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    // The smaller name becomes the root, so families get the same name on every run.
    const [lo, hi] = ra < rb ? [ra, rb] : [rb, ra];
    if (lo !== hi) parent.set(hi, lo);
  };
  // One unit per distinct folded key; a key's expansions (filled templates) stay together.
  const units = new Map<string, Example[]>();
  for (const e of examples) {
    const key = foldText(e.key);
    const unit = units.get(key);
    if (unit) unit.push(e);
    else units.set(key, [e]);
  }
  const keys = [...units.keys()];
  const sets = keys.map(shingles);
  const signatures = sets.map((set) => {
    const sig = new Uint32Array(HASHES).fill(0xffffffff);
    for (const x of set) {
      for (let h = 0; h < HASHES; h++) {
        const v = (Math.imul(x ^ (h * 0x9e3779b9), 0x85ebca6b) ^ (x >>> 13)) >>> 0;
        if (v < (sig[h] as number)) sig[h] = v;
      }
    }
    return sig;
  });
  const dead = new Set<number>();
  const seen = new Set<string>();
  for (let band = 0; band < HASHES / ROWS; band++) {
    const buckets = new Map<string, number[]>();
    signatures.forEach((sig, i) => {
      const id = Array.from(sig.subarray(band * ROWS, band * ROWS + ROWS)).join(",");
      const bucket = buckets.get(id);
      if (bucket) bucket.push(i);
      else buckets.set(id, [i]);
    });
    for (const members of buckets.values()) {
      for (let x = 0; x < members.length; x++) {
        for (let y = x + 1; y < members.length; y++) {
          const [i, j] = [members[x] as number, members[y] as number];
          if (seen.has(`${i},${j}`)) continue;
          seen.add(`${i},${j}`);
          const sim = jaccard(sets[i] as Set<number>, sets[j] as Set<number>);
          if (sim < FAMILY_JACCARD) continue;
          const [a, b] = [
            units.get(keys[i] as string) as Example[],
            units.get(keys[j] as string) as Example[],
          ];
          union((a[0] as Example).group, (b[0] as Example).group);
          if (sim >= DUPLICATE_JACCARD)
            dead.add((b[0] as Example).label === 0 ? j : (a[0] as Example).label === 0 ? i : j);
        }
      }
    }
  }
  const kept: Example[] = [];
  const family = new Map<Example, string>();
  let conflicts = 0;
  let duplicates = dead.size;
  keys.forEach((key, i) => {
    if (dead.has(i)) return;
    const unit = units.get(key) as Example[];
    const hasPositive = unit.some((e) => e.label === 1);
    const texts = new Set<string>();
    for (const e of unit) {
      // The same text labelled both ways: an attack template wins over a benign copy of it.
      if (hasPositive && e.label === 0) conflicts++;
      else if (texts.has(e.text)) duplicates++;
      else {
        texts.add(e.text);
        union(e.group, (unit[0] as Example).group);
        kept.push(e);
      }
    }
  });
  for (const e of kept) family.set(e, find(e.group));
  return { kept, family, dropped: { duplicates, conflicts } };
}
