import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sigmoid } from "../../models/math.js";
import { dequantise, modelFiles } from "../../models/weight-file.js";
import { foldText } from "../../text/normalize.js";
import { applyIsotonic, type Isotonic } from "./isotonic.js";
import {
  type DataInput,
  type Mlp,
  mlpFromValues,
  mlpInput,
  mlpInputSize,
  mlpLogit,
  mlpSize,
  type NgramView,
} from "./mlp.js";
import { createNgramLogit, createNgramScorer } from "./ngram-scorer.js";

/** Where `npm run train:llm` writes the model: models/llm/ at the package root. */
export const DEFAULT_LLM_MODEL_DIR = resolve(fileURLToPath(new URL("../../../models/llm/", import.meta.url)));
const REBUILD = "npm run train:llm";

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
  mlp?: {
    input: number;
    hidden: number;
    vectorDim: number;
    isotonic: Isotonic;
    threshold: number;
    /** The MLP's last input says whether the text is data handed to the model (mlp.ts DataInput). */
    dataInput?: boolean;
    /**
     * With the data input: the threshold chosen on benign documents alone. A data score is mapped
     * onto the shared scale (onScale) so that it lands on `threshold`: one threshold to read and
     * override, two operating points.
     */
    dataThreshold?: number;
  };
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

/**
 * What the caller knows of where the text comes from. `data`: it is data handed to the model (a
 * tool result), not a request; a model trained with the data input judges an instruction to its
 * human reader there as ordinary, one addressed to the assistant as the attack. Unknown by default.
 */
export interface TextContext {
  readonly data?: boolean;
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
  score(text: string, embedded?: EmbeddedWindows, context?: TextContext): number;
  explain(text: string, embedded?: EmbeddedWindows, context?: TextContext): InjectionScore;
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
  const files = modelFiles(dir, REBUILD);
  const header = files.header<InjectionModelHeader>();
  if ((header.format !== 1 && header.format !== 2) || !Number.isInteger(Math.log2(header.dim))) {
    throw files.unusable("model.json", "unsupported format");
  }
  const weights = dequantise(files.int16("weights.bin.gz", header.dim), header.scale);
  const mlp = header.mlp
    ? mlpFromValues(
        files.float32("mlp.bin.gz", mlpSize(header.mlp.input, header.mlp.hidden)),
        header.mlp.input,
        header.mlp.hidden,
      )
    : undefined;
  if (header.mlp && header.mlp.input !== mlpInputSize(header.mlp.vectorDim, header.mlp.dataInput === true)) {
    throw files.unusable("model.json", "its MLP input size does not match its inputs");
  }
  return createInjectionClassifier(header, weights, mlp);
}

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
  const withVectors = (
    text: string,
    embedded: EmbeddedWindows,
    net: Mlp,
    context: TextContext,
  ): InjectionScore => {
    const config = header.mlp as NonNullable<InjectionModelHeader["mlp"]>;
    const data: DataInput = config.dataInput ? (context.data ? 1 : 0) : undefined;
    const folded = foldText(text);
    const seen = new Map<string, number>();
    const wholeMax = ngramMax(folded, seen);
    const whole = wholeMax.z;
    const x = new Float32Array(net.input);
    let [best, worst] = [Number.NEGATIVE_INFINITY, ""];
    embedded.windows.forEach((w, i) => {
      const vector = embedded.vectors[i];
      if (!vector) return;
      // A text of one window is its own window: its n-grams were just scored.
      const wf = foldText(w.text);
      const own = wf === folded ? wholeMax : ngramMax(wf, seen);
      const view: NgramView = { window: own.own, subwindow: own.z, whole };
      const z = mlpLogit(net, mlpInput(vector, w.text, view, x, data));
      if (z > best) [best, worst] = [z, w.text];
    });
    const calibrated = applyIsotonic(config.isotonic, best);
    const score =
      data === 1 && config.dataThreshold !== undefined
        ? onScale(calibrated, config.dataThreshold, config.threshold)
        : calibrated;
    if (embedded.skipped?.length) {
      // Windows the encoder did not see are never skipped silently: the n-gram path scores the
      // whole text (every window), mapped onto this scale so that its own threshold lands on ours.
      const fallback = onScale(calibrateNgrams(whole), header.threshold, config.threshold);
      if (fallback > score)
        return { score: fallback, threshold: config.threshold, worst: wholeMax.worst, uses: "ngrams" };
    }
    return { score, threshold: config.threshold, worst, uses: "embeddings" };
  };
  const explain = (text: string, embedded?: EmbeddedWindows, context: TextContext = {}): InjectionScore =>
    mlp &&
    header.mlp &&
    embedded &&
    embedded.windows.length > 0 &&
    embedded.vectors[0]?.length === header.mlp.vectorDim
      ? withVectors(text, embedded, mlp, context)
      : ngramOnly(text);
  return {
    threshold: header.mlp?.threshold ?? header.threshold,
    header,
    explain,
    score: (text, embedded, context) => explain(text, embedded, context).score,
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
