import type { Mlp } from "../../src/guardrails/llm/mlp.js";
import { mlpLogit } from "../../src/guardrails/llm/mlp.js";
import { createRng, shuffle } from "./example.js";

export interface Row {
  x: Float32Array;
  y: 0 | 1;
  weight: number;
}

export interface MlpOptions {
  hidden: number;
  /** The network reads a data input (mlp.ts DataInput): documents train both ways, see stack.ts. */
  dataInput?: boolean;
  /** With dataInput: which prompts are trained a second time as data (stage-mlp.ts). */
  dataCopies?: "attacks" | "prompts";
  /** Adam step (Kingma & Ba 2015). */
  rate: number;
  /** Decoupled weight decay per step (AdamW, Loshchilov & Hutter 2019) on W1 and w2. */
  decay: number;
  /** Dropout on the hidden layer during training. */
  dropout: number;
  batch: number;
  maxEpochs: number;
  /** Stop after this many epochs without a better validation loss; keep the best weights. */
  patience: number;
  /**
   * Instead of early stopping: run all maxEpochs and return the mean of the weights at the end of
   * every epoch from this one on (stochastic weight averaging, Izmailov et al. 2018). The
   * validation loss of single epochs swings by ±0.02 from one epoch to the next, so the "best"
   * epoch is partly luck; the average is steadier and needs no validation split at all.
   */
  averageFrom?: number;
  seed: number;
}

/**
 * Trains a one-hidden-layer ReLU network on `train` with class-balanced log loss, early-stopped on
 * `valid`. Deterministic for a seed: initialisation, shuffles and dropout masks share one PRNG.
 */
export function trainMlp(
  train: Row[],
  valid: Row[],
  o: MlpOptions,
  log: (m: string) => void = () => {},
): { mlp: Mlp; epochs: number; validLoss: number } {
  const rng = createRng(o.seed);
  const input = (train[0] as Row).x.length;
  const H = o.hidden;
  const gauss = () => Math.sqrt(-2 * Math.log(rng() + 1e-12)) * Math.cos(2 * Math.PI * rng());
  const params = new Float32Array(input * H + 2 * H + 1);
  const w1Std = Math.sqrt(2 / input);
  for (let i = 0; i < input * H; i++) params[i] = gauss() * w1Std;
  for (let i = 0; i < H; i++) params[input * H + H + i] = gauss() * Math.sqrt(1 / H);
  const view = (p: Float32Array): Mlp => ({
    input,
    hidden: H,
    w1: p.subarray(0, input * H),
    b1: p.subarray(input * H, input * H + H),
    w2: p.subarray(input * H + H, input * H + 2 * H),
    b2: p[p.length - 1] as number,
  });
  const classWeight = (rows: Row[]) => {
    const t = [0, 0];
    for (const r of rows) t[r.y] = (t[r.y] as number) + r.weight;
    return t.map((x) => ((t[0] as number) + (t[1] as number)) / 2 / (x || 1));
  };
  const cw = classWeight(train);
  const lossOf = (rows: Row[], p: Float32Array): number => {
    const m = view(p);
    const w = classWeight(rows);
    let [sum, total] = [0, 0];
    for (const r of rows) {
      const z = mlpLogit(m, r.x);
      const c = r.weight * (w[r.y] as number);
      sum += c * (r.y === 1 ? softplus(-z) : softplus(z));
      total += c;
    }
    return sum / total;
  };
  const m1 = new Float32Array(params.length);
  const m2 = new Float32Array(params.length);
  const grad = new Float32Array(params.length);
  const hidden = new Float32Array(H);
  const mask = new Float32Array(H);
  const [beta1, beta2] = [0.9, 0.999];
  let step = 0;
  let best = { loss: Number.POSITIVE_INFINITY, params: params.slice(), epoch: 0 };
  const order = train.map((_, i) => i);
  const sum = new Float32Array(params.length);
  let averaged = 0;
  for (let epoch = 1; epoch <= o.maxEpochs; epoch++) {
    shuffle(order, rng);
    for (let start = 0; start < order.length; start += o.batch) {
      grad.fill(0);
      const end = Math.min(order.length, start + o.batch);
      let batchWeight = 0;
      for (let n = start; n < end; n++) {
        const r = train[order[n] as number] as Row;
        const c = r.weight * (cw[r.y] as number);
        batchWeight += c;
        let z = params[params.length - 1] as number;
        for (let h = 0; h < H; h++) {
          mask[h] = rng() < o.dropout ? 0 : 1 / (1 - o.dropout);
          let a = params[input * H + h] as number;
          const row = h * input;
          for (let i = 0; i < input; i++) a += (params[row + i] as number) * (r.x[i] as number);
          hidden[h] = a > 0 ? a * (mask[h] as number) : 0;
          z += (hidden[h] as number) * (params[input * H + H + h] as number);
        }
        const g = (1 / (1 + Math.exp(-z)) - r.y) * c;
        grad[grad.length - 1] = (grad[grad.length - 1] as number) + g;
        for (let h = 0; h < H; h++) {
          const hv = hidden[h] as number;
          if (hv === 0) continue;
          grad[input * H + H + h] = (grad[input * H + H + h] as number) + g * hv;
          const gh = g * (params[input * H + H + h] as number) * (mask[h] as number);
          grad[input * H + h] = (grad[input * H + h] as number) + gh;
          const row = h * input;
          for (let i = 0; i < input; i++) grad[row + i] = (grad[row + i] as number) + gh * (r.x[i] as number);
        }
      }
      step++;
      const lr = (o.rate * Math.sqrt(1 - beta2 ** step)) / (1 - beta1 ** step);
      for (let k = 0; k < params.length; k++) {
        const gk = (grad[k] as number) / batchWeight;
        m1[k] = beta1 * (m1[k] as number) + (1 - beta1) * gk;
        m2[k] = beta2 * (m2[k] as number) + (1 - beta2) * gk * gk;
        const isWeight = k < input * H || (k >= input * H + H && k < input * H + 2 * H);
        params[k] =
          (params[k] as number) * (isWeight ? 1 - o.rate * o.decay : 1) -
          (lr * (m1[k] as number)) / (Math.sqrt(m2[k] as number) + 1e-8);
      }
    }
    if (o.averageFrom !== undefined) {
      if (epoch >= o.averageFrom) {
        averaged++;
        for (let k = 0; k < params.length; k++)
          sum[k] = (sum[k] as number) + ((params[k] as number) - (sum[k] as number)) / averaged;
      }
      if (valid.length > 0) log(`epoch ${epoch}: validation loss ${lossOf(valid, params).toFixed(4)}`);
      continue;
    }
    const loss = lossOf(valid, params);
    log(`epoch ${epoch}: validation loss ${loss.toFixed(4)}`);
    if (loss < best.loss - 1e-4) best = { loss, params: params.slice(), epoch };
    else if (epoch - best.epoch >= o.patience) break;
  }
  if (o.averageFrom !== undefined) {
    const loss = valid.length > 0 ? lossOf(valid, sum) : Number.NaN;
    if (valid.length > 0)
      log(`averaged epochs ${o.averageFrom}–${o.maxEpochs}: validation loss ${loss.toFixed(4)}`);
    return { mlp: view(sum), epochs: o.maxEpochs, validLoss: loss };
  }
  return { mlp: view(best.params), epochs: best.epoch, validLoss: best.loss };
}

const softplus = (z: number) => (z > 30 ? z : Math.log1p(Math.exp(z)));
