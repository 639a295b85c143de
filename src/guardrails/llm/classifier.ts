import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { ModelUnavailableError } from "../../models/model-error.js";
import { foldText } from "../../text/normalize.js";
import { featurize, type SparseVector } from "./features/ngrams.js";
import { sentenceWindows } from "./features/windows.js";

/** Where `npm run train:llm` writes the model: models/llm/ at the package root. */
export const DEFAULT_LLM_MODEL_DIR = resolve(fileURLToPath(new URL("../../../models/llm/", import.meta.url)));
const REMEDY = "rebuild it with `npm run train:llm`";

/** models/llm/model.json: everything but the weight table. */
export interface InjectionModelHeader {
  format: 1;
  /** Hashed feature buckets, a power of two. */
  dim: number;
  /** int16 weight × scale = float weight. */
  scale: number;
  bias: number;
  /** Platt scaling of the raw max-over-windows logit: p = σ(a·z + b). */
  platt: { a: number; b: number };
  /** The bundled default threshold on the calibrated score (see MODEL_CARD.md). */
  threshold: number;
  trainedAt: string;
}

export interface InjectionScore {
  /** Calibrated probability of injection, in [0, 1]: the maximum over the text and its windows. */
  score: number;
  /** The window (folded text) that scored highest, or the whole folded text. */
  worst: string;
}

export interface InjectionClassifier {
  readonly threshold: number;
  readonly header: InjectionModelHeader;
  /**
   * Calibrated injection probability of `text` (raw user text; it is normalised here with
   * src/text/normalize.ts). Scores the whole text and each sentence window and keeps the maximum,
   * so one injected sentence in a long document counts. Needs nothing but the text: no embeddings.
   */
  score(text: string): number;
  explain(text: string): InjectionScore;
}

/** Loads model.json and weights.bin.gz from `dir` (default models/llm/). */
export async function loadInjectionClassifier(
  dir: string = DEFAULT_LLM_MODEL_DIR,
): Promise<InjectionClassifier> {
  const headerPath = join(dir, "model.json");
  const weightsPath = join(dir, "weights.bin.gz");
  const header = JSON.parse(
    await readModelFile(headerPath).then((b) => b.toString("utf8")),
  ) as InjectionModelHeader;
  if (header.format !== 1 || !Number.isInteger(Math.log2(header.dim))) {
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
  return createInjectionClassifier(header, weights);
}

/** A classifier over weights already in memory (the training script evaluates through this). */
export function createInjectionClassifier(
  header: InjectionModelHeader,
  weights: ArrayLike<number>,
): InjectionClassifier {
  const logit = (x: SparseVector): number => {
    let z = header.bias;
    for (let k = 0; k < x.index.length; k++)
      z += (weights[x.index[k] as number] as number) * (x.value[k] as number);
    return z;
  };
  const explain = (text: string): InjectionScore => {
    const folded = foldText(text);
    let best = logit(featurize(folded, header.dim));
    let worst = folded;
    for (const window of sentenceWindows(folded)) {
      const z = logit(featurize(window, header.dim));
      if (z > best) [best, worst] = [z, window];
    }
    return { score: 1 / (1 + Math.exp(-(header.platt.a * best + header.platt.b))), worst };
  };
  return { threshold: header.threshold, header, explain, score: (text) => explain(text).score };
}

async function readModelFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new ModelUnavailableError(path, REMEDY, error);
  }
}
