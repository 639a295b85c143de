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

export interface Tokenizer {
  encode(text: string): number[];
  /**
   * Where each token of `text` ends, as code-point offsets into the model's view of it (a
   * separator, then the text's code points): token k covers (ends[k-1], ends[k]], token 0 starts
   * at 0. Undefined when NFKC changes the text, so that offsets into it would mean nothing. No
   * piece holds a separator past its first character, so a text's tokens are its words' tokens
   * in a row: windowing tokenises a long text once and counts any word-aligned span from this.
   */
  tokenEnds(text: string): Int32Array | undefined;
}

export function createTokenizer(vocabulary: Vocabulary): Tokenizer {
  const trie = buildTrie(vocabulary);
  // The original steps back by the piece's UTF-16 length while its lattice counts code points;
  // no piece in the vocabulary has an astral character, but keep the arithmetic identical.
  const backStep = Int32Array.from(vocabulary, ([piece]) => piece.length);
  return {
    encode: (text) => segment(text.normalize("NFKC"), trie, backStep).ids,
    tokenEnds: (text) => {
      const normalized = text.normalize("NFKC");
      return normalized === text ? Int32Array.from(segment(normalized, trie, backStep).ends) : undefined;
    },
  };
}

/**
 * The pieces' trie in typed arrays: node 0 is the root, and each edge (node, code point) → child
 * sits in one open-addressing table. Walking it reads integers where a trie of objects with a Map
 * per node followed references and hashed a key per step (1.3–2× slower): the tokenizer is what
 * windowing spends most of its time in, on the thread that serves requests.
 */
interface Trie {
  /** Each node's piece id (-1: no piece ends here) and score. */
  readonly id: Int32Array;
  readonly score: Float64Array;
  readonly edgeNode: Int32Array;
  readonly edgeCp: Int32Array;
  readonly edgeChild: Int32Array;
  readonly mask: number;
}

const slot = (node: number, cp: number, mask: number) =>
  (Math.imul(node, 0x9e3779b1) ^ Math.imul(cp, 0x85ebca6b)) & mask;

function buildTrie(vocabulary: Vocabulary): Trie {
  // Every code point of every piece could start a node of its own.
  let most = 1;
  for (let id = RESERVED; id < vocabulary.length; id++) most += (vocabulary[id]?.[0] ?? "").length;
  let size = 1;
  while (size < 2 * most) size *= 2;
  const trie: Trie = {
    id: new Int32Array(most).fill(-1),
    score: new Float64Array(most),
    edgeNode: new Int32Array(size).fill(-1),
    edgeCp: new Int32Array(size),
    edgeChild: new Int32Array(size),
    mask: size - 1,
  };
  let nodes = 1;
  for (let id = RESERVED; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id] ?? ["", 0];
    let node = 0;
    for (const ch of piece) {
      const cp = ch.codePointAt(0) as number;
      let child = childOf(trie, node, cp);
      if (child < 0) {
        child = nodes++;
        let at = slot(node, cp, trie.mask);
        while ((trie.edgeNode[at] as number) >= 0) at = (at + 1) & trie.mask;
        trie.edgeNode[at] = node;
        trie.edgeCp[at] = cp;
        trie.edgeChild[at] = child;
      }
      node = child;
    }
    // A later piece with the same text replaces an earlier one, as the original's trie did.
    trie.id[node] = id;
    trie.score[node] = score;
  }
  return trie;
}

/** The child of `node` along `cp`, or -1. */
function childOf(trie: Trie, node: number, cp: number): number {
  const { edgeNode, edgeCp, mask } = trie;
  for (let at = slot(node, cp, mask); ; at = (at + 1) & mask) {
    const owner = edgeNode[at] as number;
    if (owner < 0) return -1;
    if (owner === node && edgeCp[at] === cp) return trie.edgeChild[at] as number;
  }
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

/**
 * Viterbi over the candidate pieces, relaxed as they are found: every piece ending at `start` starts
 * before it, so best[start] is final when the walk from `start` begins, and each end position sees
 * its candidates in the original's order (by start, then length). The original first collected
 * every candidate in per-end lists and then walked them; this gives the same ids with no lists
 * (40% of the time on an ordinary prompt went to building them).
 */
function segment(normalized: string, trie: Trie, backStep: Int32Array): { ids: number[]; ends: number[] } {
  if (normalized.length === 0) return { ids: [], ends: [] };
  const cps = codePoints(SEPARATOR + normalized.replaceAll(" ", SEPARATOR));
  const n = cps.length;
  const best = new Float64Array(n + 1);
  const words = new Int32Array(n + 1);
  const relax = (start: number, end: number, id: number, pieceScore: number): void => {
    const score = pieceScore + (best[start] as number);
    if (best[end] === 0 || score >= (best[end] as number)) {
      best[end] = score;
      words[end] = id;
    }
  };
  for (let start = 0; start < n; start++) {
    let matched = false;
    let node = childOf(trie, 0, cps[start] as number);
    for (let k = start; node >= 0; ) {
      const id = trie.id[node] as number;
      if (id >= 0) {
        relax(start, k + 1, id, trie.score[node] as number);
        matched = true;
      }
      k++;
      node = k < n ? childOf(trie, node, cps[k] as number) : -1;
    }
    if (!matched) relax(start, start + 1, UNKNOWN, 0);
  }
  const ids: number[] = [];
  const ends: number[] = [];
  for (let at = n; at > 0; at -= backStep[words[at] as number] as number) {
    ids.push(words[at] as number);
    ends.push(at);
  }
  // Backwards, so a run of unknown ids keeps its first (rightmost) end.
  const merged: number[] = [];
  const mergedEnds: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] === UNKNOWN && i > 0 && ids[i - 1] === UNKNOWN) continue;
    merged.push(ids[i] as number);
    mergedEnds.push(ends[i] as number);
  }
  return { ids: merged.reverse(), ends: mergedEnds.reverse() };
}
