import { type DataInput, mlpInput } from "../../src/guardrails/llm/mlp.js";
import type { NgramMax } from "../../src/guardrails/llm/ngram-scorer.js";
import { foldText } from "../../src/text/normalize.js";
import type { Embedded } from "./embed.js";
import { createRng, type Example, shuffle } from "./example.js";
import type { Row } from "./mlp-train.js";

// A benign document adds at most this many windows, each at this weight (as items.ts does).
const NEGATIVE_WINDOWS = 8;
const WINDOW_WEIGHT = 0.5;

/** One example's MLP inputs, one per engine window, and each window's best n-gram logit. */
export interface Stacked {
  inputs: Float32Array[];
  ngram: number[];
}

/** Builds the MLP inputs of every window exactly as the classifier does at run time. */
export function stackExample(
  e: Example,
  emb: Embedded,
  scorer: (folded: string) => NgramMax,
  data?: DataInput,
): Stacked {
  const folded = foldText(e.text);
  const whole = scorer(folded).z;
  const inputs: Float32Array[] = [];
  const ngram: number[] = [];
  emb.windows.forEach((w, i) => {
    const wf = foldText(w.text);
    const own = scorer(wf);
    inputs.push(
      mlpInput(
        emb.vectors[i] as Float32Array,
        w.text,
        { window: own.own, subwindow: own.z, whole },
        undefined,
        data,
      ),
    );
    ngram.push(own.z);
  });
  return { inputs, ngram };
}

/**
 * Window-level training rows. Benign texts: their windows are negatives. Planted documents: the
 * payload's windows are positives, the carrier's other windows negatives. Other attacks: the
 * window the (out-of-fold) n-gram model finds worst is the positive, the rest are left out, since
 * a long jailbreak holds harmless sentences too (one step of multiple-instance learning).
 */
export function trainingRows(
  examples: Example[],
  embedded: Embedded[],
  stacked: Stacked[],
  seed: number,
): Row[] {
  const rng = createRng(seed);
  const rows: Row[] = [];
  examples.forEach((e, n) => {
    const { inputs, ngram } = stacked[n] as Stacked;
    const planted = (embedded[n] as Embedded).planted;
    if (inputs.length === 0) return;
    const single = inputs.length === 1;
    if (e.label === 0 || planted.length > 0) {
      const hit = new Set(planted);
      for (const i of hit) rows.push({ x: inputs[i] as Float32Array, y: 1, weight: 1 });
      const clean = shuffle(
        [...inputs.keys()].filter((i) => !hit.has(i)),
        rng,
      ).slice(0, NEGATIVE_WINDOWS);
      for (const i of clean)
        rows.push({ x: inputs[i] as Float32Array, y: 0, weight: single ? 1 : WINDOW_WEIGHT });
    } else {
      const best = ngram.indexOf(Math.max(...ngram));
      rows.push({ x: inputs[best] as Float32Array, y: 1, weight: 1 });
    }
  });
  return rows;
}
