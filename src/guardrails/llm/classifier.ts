import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { ModelUnavailableError } from "../../models/model-error.js";
import { foldText } from "../../text/normalize.js";
import { applyIsotonic, type Isotonic } from "./isotonic.js";
import { type Mlp, mlpFromBytes, mlpInput, mlpLogit, type NgramView } from "./mlp.js";
import { createNgramLogit, createNgramScorer } from "./ngram-scorer.js";

/** Where `npm run train:llm` writes the model: models/llm/ at the package root. */
export const DEFAULT_LLM_MODEL_DIR = resolve(fileURLToPath(new URL("../../../models/llm/", import.meta.url)));
const REMEDY = "rebuild it with `npm run train:llm`";

/** Platt scaling of a raw logit: p = σ(a·z + b). */
export interface Platt {
  a: number;
  b: number;
}

/** models/llm/model.json: everything but the weight tables. Format 1 (v1) has no `mlp`. */
export interface InjectionModelHeader {
  format: 1 | 2;
  /** Hashed feature buckets, a power of two. */
  dim: number;
  /** int16 weight × scale = float weight (weights.bin.gz). */
  scale: number;
  bias: number;
  /** n-grams alone (no embeddings): calibration of the max-over-windows logit, and its threshold. */
  platt: Platt;
  /** Format 2: isotonic calibration, used instead of `platt`. */
  isotonic?: Isotonic;
  threshold: number;
  /** The MLP over window embeddings and n-gram logits (mlp.bin.gz), used when vectors are given. */
  mlp?: { input: number; hidden: number; vectorDim: number; isotonic: Isotonic; threshold: number };
  trainedAt: string;
}

/** The request's sentence windows of `text.clean` and their unit vectors (src/engine/embedding.ts). */
export interface EmbeddedWindows {
  readonly windows: readonly { readonly text: string }[];
  readonly vectors: readonly Float32Array[];
  /** Windows past the encoder budget, not embedded: the n-gram path answers for them. */
  readonly skipped?: readonly unknown[];
}

export interface InjectionScore {
  /** Calibrated probability of injection, in [0, 1] (see MODEL_CARD.md for what it means). */
  score: number;
  /** The bundled threshold of the path that produced the score. */
  threshold: number;
  /** The window that scored highest (folded for n-grams, clean for embeddings). */
  worst: string;
  /** "embeddings": the MLP over the given vectors; "ngrams": the fallback without them. */
  uses: "embeddings" | "ngrams";
}

export interface InjectionClassifier {
  /** Threshold of the full model (with embeddings), or of n-grams when the model has no MLP. */
  readonly threshold: number;
  readonly header: InjectionModelHeader;
  /**
   * Calibrated injection probability of `text` (raw user text, normalised here). With `embedded`
   * (the engine's windows of `text.clean` and their vectors) the MLP scores every window and the
   * maximum counts; without it, or for a model with no MLP, n-grams alone score the whole text
   * and its sentence windows.
   */
  score(text: string, embedded?: EmbeddedWindows): number;
  explain(text: string, embedded?: EmbeddedWindows): InjectionScore;
  /**
   * How suspicious each window (clean text) looks to the n-gram model alone, as a logit: cheap, so
   * the engine can choose which windows of a very long text the encoder embeds.
   */
  triage(texts: readonly string[]): Float64Array;
}

/** Loads model.json, weights.bin.gz and (format 2) mlp.bin.gz from `dir` (default models/llm/). */
export async function loadInjectionClassifier(
  dir: string = DEFAULT_LLM_MODEL_DIR,
): Promise<InjectionClassifier> {
  const headerPath = join(dir, "model.json");
  const weightsPath = join(dir, "weights.bin.gz");
  const header = JSON.parse(
    await readModelFile(headerPath).then((b) => b.toString("utf8")),
  ) as InjectionModelHeader;
  if ((header.format !== 1 && header.format !== 2) || !Number.isInteger(Math.log2(header.dim))) {
    throw new ModelUnavailableError(headerPath, `unsupported format; ${REMEDY}`);
  }
  const bytes = gunzipSync(await readModelFile(weightsPath));
  if (bytes.length !== header.dim * 2) {
    throw new ModelUnavailableError(weightsPath, `expected ${header.dim * 2} bytes; ${REMEDY}`);
  }
  // Copy into an aligned buffer: a Buffer from the pool may start at an odd offset.
  const quantised = new Int16Array(header.dim);
  new Uint8Array(quantised.buffer).set(bytes);
  const weights = Float32Array.from(quantised, (q) => q * header.scale);
  let mlp: Mlp | undefined;
  if (header.mlp) {
    const mlpPath = join(dir, "mlp.bin.gz");
    mlp = mlpFromBytes(gunzipSync(await readModelFile(mlpPath)), header.mlp.input, header.mlp.hidden);
    if (!mlp) throw new ModelUnavailableError(mlpPath, `wrong size for model.json; ${REMEDY}`);
  }
  return createInjectionClassifier(header, weights, mlp);
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** A classifier over weights already in memory (the training script evaluates through this). */
export function createInjectionClassifier(
  header: InjectionModelHeader,
  weights: ArrayLike<number>,
  mlp?: Mlp,
): InjectionClassifier {
  const ngramMax = createNgramScorer(header.dim, weights, header.bias);
  const ngramLogit = createNgramLogit(header.dim, weights, header.bias);
  const calibrateNgrams = (z: number) =>
    header.isotonic ? applyIsotonic(header.isotonic, z) : sigmoid(header.platt.a * z + header.platt.b);
  const ngramOnly = (text: string): InjectionScore => {
    const { z, worst } = ngramMax(foldText(text));
    return { score: calibrateNgrams(z), threshold: header.threshold, worst, uses: "ngrams" };
  };
  const withVectors = (text: string, embedded: EmbeddedWindows, net: Mlp): InjectionScore => {
    const config = header.mlp as NonNullable<InjectionModelHeader["mlp"]>;
    const folded = foldText(text);
    const wholeMax = ngramMax(folded);
    const whole = wholeMax.z;
    const x = new Float32Array(net.input);
    let [best, worst] = [Number.NEGATIVE_INFINITY, ""];
    embedded.windows.forEach((w, i) => {
      const vector = embedded.vectors[i];
      if (!vector) return;
      const wf = foldText(w.text);
      const own = wf === folded ? ngramMax(folded) : ngramMax(wf);
      const view: NgramView = { window: own.own, subwindow: own.z, whole };
      const z = mlpLogit(net, mlpInput(vector, w.text, view, x));
      if (z > best) [best, worst] = [z, w.text];
    });
    const score = applyIsotonic(config.isotonic, best);
    if (embedded.skipped?.length) {
      // Windows the encoder did not see are never skipped silently: the n-gram path scores the
      // whole text (every window), mapped onto this scale so that its own threshold lands on ours.
      const fallback = onScale(calibrateNgrams(whole), header.threshold, config.threshold);
      if (fallback > score)
        return { score: fallback, threshold: config.threshold, worst: wholeMax.worst, uses: "ngrams" };
    }
    return { score, threshold: config.threshold, worst, uses: "embeddings" };
  };
  const explain = (text: string, embedded?: EmbeddedWindows): InjectionScore =>
    mlp &&
    header.mlp &&
    embedded &&
    embedded.windows.length > 0 &&
    embedded.vectors[0]?.length === header.mlp.vectorDim
      ? withVectors(text, embedded, mlp)
      : ngramOnly(text);
  return {
    threshold: header.mlp?.threshold ?? header.threshold,
    header,
    explain,
    score: (text, embedded) => explain(text, embedded).score,
    triage: (texts) => Float64Array.from(texts, (t) => ngramLogit(foldText(t))),
  };
}

/**
 * Maps a score calibrated with threshold `from` onto a scale whose threshold is `to`, piecewise
 * linearly: monotone, 0 and 1 fixed, `from` lands on `to`, so a score flags here exactly when it
 * flagged on its own scale.
 */
export function onScale(score: number, from: number, to: number): number {
  if (!(from > 0 && from < 1)) return score;
  return score <= from ? (score * to) / from : to + ((score - from) * (1 - to)) / (1 - from);
}

async function readModelFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new ModelUnavailableError(path, REMEDY, error);
  }
}
