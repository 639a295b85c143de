import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  DEFAULT_LLM_MODEL_DIR,
  type EmbeddedWindows,
  type InjectionClassifier,
  type InjectionScore,
  loadInjectionClassifier,
  onScale,
  type TextContext,
} from "./classifier.js";

/** Where `npm run train:llm -- --data-input --out models/llm/data` writes the model for tool results. */
export const DATA_MODEL_SUBDIR = "data";

export interface RoleAwareClassifier {
  /** The request model's threshold: the one scale every score is reported on. */
  readonly threshold: number;
  /** The model that judges requests (and every text when there is no data model). */
  readonly requests: InjectionClassifier;
  /** The model that judges data handed to the assistant (a tool result), when bundled. */
  readonly data: InjectionClassifier | undefined;
  explain(text: string, embedded: EmbeddedWindows | undefined, context: TextContext): InjectionScore;
  triage(texts: readonly string[]): Float64Array;
}

/**
 * The request model in `dir` and, when `dir/data/` holds one, a second model trained with the
 * data input that judges tool results. Two models rather than one with the input because the one
 * model, trained on documents and prompts together, judged single prompts worse than the request
 * model alone (training/README.md, round 2), and a prompt is what most checks are. A data score is
 * mapped onto the request model's scale (onScale), so a profile's one threshold reads the same
 * for both: the data model's own operating point lands on it.
 */
export async function loadRoleAwareClassifier(
  dir: string = DEFAULT_LLM_MODEL_DIR,
): Promise<RoleAwareClassifier> {
  const dataDir = join(dir, DATA_MODEL_SUBDIR);
  const [requests, data] = await Promise.all([
    loadInjectionClassifier(dir),
    existsSync(join(dataDir, "model.json")) ? loadInjectionClassifier(dataDir) : undefined,
  ]);
  if (data && data.header.mlp?.dataInput !== true) {
    throw new Error(
      `${dataDir}: the model for tool results must be trained with the data input (--data-input)`,
    );
  }
  return {
    threshold: requests.threshold,
    requests,
    data,
    triage: (texts) => requests.triage(texts),
    explain(text, embedded, context) {
      if (!(data && context.data)) return requests.explain(text, embedded, context);
      const own = data.explain(text, embedded, context);
      // Each path (the MLP over vectors, the n-gram fallback) onto the request model's same path.
      const to = own.uses === "embeddings" ? requests.threshold : requests.header.threshold;
      return { ...own, score: onScale(own.score, own.threshold, to), threshold: to };
    },
  };
}
