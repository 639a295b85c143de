import { join, resolve } from "node:path";
import { z } from "zod";
import type { Encoder } from "../../models/encoder.js";
import { loadHfEncoder } from "../../models/hf-classifier/feature-extractor.js";
import { sharedModel } from "../../models/hf-classifier/shared.js";
import { userIndexDir } from "./targets.js";

/**
 * Bring your own embedding model for the vector guardrail: a local Hugging Face feature-extraction
 * export used instead of USE-lite, for the index and for the prompts. Never downloaded.
 */
export const ownEmbeddingModel = z.strictObject({
  /** The export folder, relative to the profile file. */
  path: z.string().min(1),
  /** Token vectors to one text vector when the model has no pooled output (default mean). */
  pooling: z.enum(["mean", "cls"]).default("mean"),
  /** Tokens per window; defaults to the model's own limit. */
  max_length: z.number().int().min(8).optional(),
});

export type OwnEmbeddingModel = z.output<typeof ownEmbeddingModel>;

/** The profile's model, shared with every profile and reload that names the same folder (sharedModel). */
export function loadOwnEncoder(model: OwnEmbeddingModel, profileDir: string): Promise<Encoder> {
  const options = {
    dir: resolve(profileDir, model.path),
    pooling: model.pooling,
    ...(model.max_length === undefined ? {} : { maxLength: model.max_length }),
  };
  return sharedModel("feature-extraction", options.dir, options, () => loadHfEncoder(options));
}

/**
 * Where a profile's own model keeps its indexes (the bundled corpus's and the profile corpora's):
 * `<config>/.index/<model id>/`, beside the USE-lite indexes of profile corpora, since
 * models/vector/ holds USE-lite's. `guardrail index build` writes them; until then each start
 * builds them in memory.
 */
export const ownIndexDir = (profileDir: string, encoderId: string): string =>
  join(userIndexDir(profileDir), encoderId);
