/**
 * The encoder's word states (src/guardrails/pii/tagger/word-states.ts) of many texts at once, for
 * fitting and scoring the tagger with them: each text's pieces are encoded in runs of at most
 * USE_LITE_MAX_TOKENS (a longer text in consecutive pieces, each run seeing only its own), and
 * the states are looked up by the exact text the tagger is given.
 */
import type { WordStatesOf } from "../../src/guardrails/pii/tagger/tagger.js";
import { createTokens, tokenizeInto } from "../../src/guardrails/pii/tagger/tokenize.js";
import { WORD_STATE_DIM, wordStates } from "../../src/guardrails/pii/tagger/word-states.js";
import type { Precision } from "../../src/models/use-lite/convert/quantize.js";
import { createUseLiteEncoder, USE_LITE_MAX_TOKENS } from "../../src/models/use-lite/encoder.js";

/** Runs of pieces per encoder call: enough to keep onnxruntime busy, few enough to hold in memory. */
const CALL = 256;

export async function encodeWordStates(
  texts: Iterable<string>,
  precision: Precision,
  log: (m: string) => void,
): Promise<WordStatesOf> {
  const encoder = createUseLiteEncoder({ precision, intraOpThreads: 2 });
  const unique = [...new Set(texts)];
  const byText = new Map<string, Float32Array>();
  const tokens = createTokens();
  let skipped = 0;
  for (let from = 0; from < unique.length; from += CALL) {
    const batch = unique.slice(from, from + CALL);
    const runs: number[][] = [];
    const owner: number[] = [];
    const ends: (Int32Array | undefined)[] = batch.map((text) => encoder.tokenEnds?.(text));
    batch.forEach((text, i) => {
      if (!ends[i]) return;
      const ids = encoder.tokenize(text);
      for (let at = 0; at < ids.length; at += USE_LITE_MAX_TOKENS) {
        runs.push(ids.slice(at, at + USE_LITE_MAX_TOKENS));
        owner.push(i);
      }
    });
    const { states } = await encoder.encodeTokens(runs);
    const parts: Float32Array[][] = batch.map(() => []);
    for (const [r, s] of states.entries()) parts[owner[r] as number]?.push(s);
    for (const [i, text] of batch.entries()) {
      const textEnds = ends[i];
      // NFKC changes the text: the pieces' offsets would not be the tagger's; the tagger runs without.
      if (!textEnds) {
        skipped++;
        continue;
      }
      const rows = parts[i] ?? [];
      const all = new Float32Array(rows.reduce((n, r) => n + r.length, 0));
      let at = 0;
      for (const r of rows) {
        all.set(r, at);
        at += r.length;
      }
      tokenizeInto(text, tokens);
      byText.set(text, wordStates(text, tokens, textEnds, all));
    }
    log(`word states: ${Math.min(from + CALL, unique.length)} of ${unique.length} texts`);
  }
  await encoder.close();
  if (skipped) log(`word states: ${skipped} texts change under NFKC and have none`);
  return (text, t) => {
    const s = byText.get(text);
    return s && s.length === t.count * WORD_STATE_DIM ? s : undefined;
  };
}
