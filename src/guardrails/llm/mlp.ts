import { foldText } from "../../text/normalize.js";
import { CUE_COUNT, cues } from "./features/cues.js";

/**
 * Input width: the 512-d window vector, three n-gram logits, the cues, and (models trained with
 * `--data-input`) one input that says the text was handed to the model as data.
 */
export const NGRAM_INPUTS = 3;
export const mlpInputSize = (vectorDim: number, dataInput = false): number =>
  vectorDim + NGRAM_INPUTS + CUE_COUNT + (dataInput ? 1 : 0);
// n-gram logits span roughly ±15; this keeps them on the scale of the other inputs.
const LOGIT_SCALE = 0.25;

/** One hidden ReLU layer: z = w2 · relu(W1 x + b1) + b2. W1 is row-major, hidden × input. */
export interface Mlp {
  readonly input: number;
  readonly hidden: number;
  readonly w1: Float32Array;
  readonly b1: Float32Array;
  readonly w2: Float32Array;
  readonly b2: number;
}

/** The n-gram model's view of one window: its own logit, its best sentence window, the whole text. */
export interface NgramView {
  window: number;
  subwindow: number;
  whole: number;
}

/**
 * Whether the text is data the app handed the model (a tool result: an e-mail, a web page, a file)
 * rather than a request to it: 1 or 0 for a model with the data input, undefined for one without.
 * 0 also means "not known": a single `message` may be either, so training shows every document
 * also at 0 (and every prompt attack also at 1; training/llm/stage-mlp.ts).
 */
export type DataInput = 0 | 1 | undefined;

/** The MLP input of one engine window (`text` is the window of `text.clean`). */
export function mlpInput(
  vector: Float32Array,
  text: string,
  ngram: NgramView,
  out?: Float32Array,
  data?: DataInput,
): Float32Array {
  const x = out ?? new Float32Array(mlpInputSize(vector.length, data !== undefined));
  x.set(vector, 0);
  let k = vector.length;
  x[k++] = ngram.window * LOGIT_SCALE;
  x[k++] = ngram.subwindow * LOGIT_SCALE;
  x[k++] = ngram.whole * LOGIT_SCALE;
  for (const c of cues(text, foldText(text))) x[k++] = c;
  if (data !== undefined) x[k++] = data;
  return x;
}

/**
 * Four products per step, added one at a time in the same order as a plain loop, so the sum is
 * the same to the last bit; the loop's bounds checks and branch per product halve (1.7x faster
 * over the bundled 256 × 528 layer, which runs once per window of every input-check).
 */
export function mlpLogit(m: Mlp, x: Float32Array): number {
  const { w1, b1, w2, hidden, input } = m;
  let z = m.b2;
  for (let h = 0, row = 0; h < hidden; h++, row += input) {
    let a = b1[h] as number;
    let i = 0;
    for (; i + 4 <= input; i += 4) {
      const r = row + i;
      a += (w1[r] as number) * (x[i] as number);
      a += (w1[r + 1] as number) * (x[i + 1] as number);
      a += (w1[r + 2] as number) * (x[i + 2] as number);
      a += (w1[r + 3] as number) * (x[i + 3] as number);
    }
    for (; i < input; i++) a += (w1[row + i] as number) * (x[i] as number);
    if (a > 0) z += a * (w2[h] as number);
  }
  return z;
}

/** How many float32 values mlp.bin.gz holds: w1, b1, w2, b2 in that order. */
export const mlpSize = (input: number, hidden: number): number => input * hidden + hidden + hidden + 1;

/** An MLP over the values of mlp.bin.gz (views into `all`, no copy). */
export function mlpFromValues(all: Float32Array, input: number, hidden: number): Mlp {
  return {
    input,
    hidden,
    w1: all.subarray(0, input * hidden),
    b1: all.subarray(input * hidden, input * hidden + hidden),
    w2: all.subarray(input * hidden + hidden, input * hidden + 2 * hidden),
    b2: all[mlpSize(input, hidden) - 1] as number,
  };
}

/** The values mlp.bin.gz holds (the training script's side of `mlpFromValues`). */
export function mlpValues(m: Mlp): Float32Array {
  const all = new Float32Array(mlpSize(m.input, m.hidden));
  all.set(m.w1, 0);
  all.set(m.b1, m.w1.length);
  all.set(m.w2, m.w1.length + m.hidden);
  all[all.length - 1] = m.b2;
  return all;
}
