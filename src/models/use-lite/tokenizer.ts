/**
 * USE-lite's SentencePiece (unigram) tokenizer, ported from @energetic-ai/embeddings 0.2.0 (itself
 * from @tensorflow-models/universal-sentence-encoder, Apache-2.0) so that it gives the exact same
 * ids, quirks included: the Viterbi pass treats a best score of 0 as "unset", ties go to the later
 * candidate, and runs of unknown characters collapse into one id 0.
 * The original copies the rest of the string at every character; this walks the trie from an
 * offset into one code-point array instead (about 1.5× faster on long texts).
 */
export type Vocabulary = readonly (readonly [piece: string, score: number])[];

const SEPARATOR = "\u2581";
/** Ids 0–5 (unknown, <s>, </s>, extra tokens) are never produced by matching. */
const RESERVED = 6;
const UNKNOWN = 0;

interface TrieNode {
  children: Map<number, TrieNode>;
  id: number;
  score: number;
}

const newNode = (): TrieNode => ({ children: new Map(), id: -1, score: 0 });

export interface Tokenizer {
  encode(text: string): number[];
}

export function createTokenizer(vocabulary: Vocabulary): Tokenizer {
  const root = newNode();
  for (let id = RESERVED; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id] ?? ["", 0];
    let node = root;
    for (const ch of piece) {
      const cp = ch.codePointAt(0) as number;
      const child = node.children.get(cp) ?? newNode();
      node.children.set(cp, child);
      node = child;
    }
    node.id = id;
    node.score = score;
  }
  // The original steps back by the piece's UTF-16 length while its lattice counts code points;
  // no piece in the vocabulary has an astral character, but keep the arithmetic identical.
  const backStep = Int32Array.from(vocabulary, ([piece]) => piece.length);
  return { encode: (text) => encode(text, root, backStep) };
}

function codePoints(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; n++) {
    const cp = text.codePointAt(i) as number;
    out[n] = cp;
    i += cp > 0xffff ? 2 : 1;
  }
  return out.subarray(0, n);
}

function encode(text: string, root: TrieNode, backStep: Int32Array): number[] {
  const normalized = text.normalize("NFKC");
  if (normalized.length === 0) return [];
  const cps = codePoints(SEPARATOR + normalized.replaceAll(" ", SEPARATOR));
  const n = cps.length;
  // Candidate pieces, chained per end position in (start, length) order, as the original visits them.
  const first = new Int32Array(n + 1).fill(-1);
  const lastOf = new Int32Array(n + 1).fill(-1);
  const next: number[] = [];
  const candStart: number[] = [];
  const candId: number[] = [];
  const candScore: number[] = [];
  const add = (start: number, end: number, id: number, score: number): void => {
    const c = candId.length;
    candStart.push(start);
    candId.push(id);
    candScore.push(score);
    next.push(-1);
    const tail = lastOf[end] as number;
    if (tail === -1) first[end] = c;
    else next[tail] = c;
    lastOf[end] = c;
  };
  for (let start = 0; start < n; start++) {
    let matched = false;
    let node = root.children.get(cps[start] as number);
    for (let k = start; node; ) {
      if (node.id >= 0) {
        add(start, k + 1, node.id, node.score);
        matched = true;
      }
      k++;
      node = k < n ? node.children.get(cps[k] as number) : undefined;
    }
    if (!matched) add(start, start + 1, UNKNOWN, 0);
  }
  const best = new Float64Array(n + 1);
  const words = new Int32Array(n + 1);
  for (let end = 0; end <= n; end++) {
    for (let c = first[end] as number; c !== -1; c = next[c] as number) {
      const score = (candScore[c] as number) + (best[candStart[c] as number] as number);
      if (best[end] === 0 || score >= (best[end] as number)) {
        best[end] = score;
        words[end] = candId[c] as number;
      }
    }
  }
  const ids: number[] = [];
  for (let at = n; at > 0; at -= backStep[words[at] as number] as number) ids.push(words[at] as number);
  const merged: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (!(ids[i] === UNKNOWN && i > 0 && ids[i - 1] === UNKNOWN)) merged.push(ids[i] as number);
  }
  return merged.reverse();
}
