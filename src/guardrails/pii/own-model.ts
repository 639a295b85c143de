import { join, resolve } from "node:path";
import { z } from "zod";
import { ConfigError } from "../../errors.js";
import { sharedModel } from "../../models/hf-classifier/shared.js";
import { loadHfTokenClassifier } from "../../models/hf-classifier/token-classifier.js";
import { PII_ENTITIES, type PiiEntity } from "./entities.js";
import type { PiiSpan } from "./recognizer.js";

/**
 * Bring your own NER model: a local Hugging Face token-classification export (ONNX weights,
 * tokenizer.json, config.json). The profile maps the model's entity labels (its B-/I- labels
 * without the prefix) to PII entity types; what it finds joins what the rules find. Never downloaded.
 */
export const ownNerModel = z.strictObject({
  /** The export folder, relative to the profile file. */
  path: z.string().min(1),
  /** The model's entity labels and the PII entity each one is (e.g. PER: PERSON). Others are ignored. */
  labels: z
    .record(z.string().min(1), z.enum(PII_ENTITIES))
    .refine(
      (labels) => Object.keys(labels).length > 0,
      "map at least one of the model's labels (e.g. PER: PERSON)",
    ),
  /** An entity counts when its tokens' mean probability reaches this (default 0.5). */
  min_score: z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").default(0.5),
  /** Tokens per window; defaults to the model's own limit. */
  max_length: z.number().int().min(8).optional(),
});

export type OwnNerModel = z.output<typeof ownNerModel>;

/** Finds the mapped entities of a text with the profile's own model; spans are offsets into it. */
export interface OwnTagger {
  find(text: string): Promise<PiiSpan[]>;
}

export async function loadOwnTagger(
  model: OwnNerModel,
  profileDir: string,
  wanted: ReadonlySet<PiiEntity>,
): Promise<OwnTagger> {
  const options = {
    dir: resolve(profileDir, model.path),
    ...(model.max_length === undefined ? {} : { maxLength: model.max_length }),
  };
  // Shared with every profile and reload that names the same folder (sharedModel): never closed here.
  const tagger = await sharedModel("token-classification", options.dir, options, () =>
    loadHfTokenClassifier(options),
  );
  const missing = Object.keys(model.labels).filter((l) => !tagger.entityLabels.includes(l));
  if (missing.length > 0) {
    throw new ConfigError(
      `${join(tagger.folder.dir, "config.json")}: the model tags no entity ${missing.map((l) => `"${l}"`).join(", ")} ` +
        `(it tags: ${tagger.entityLabels.join(", ")}); fix the names under pii.model.labels`,
    );
  }
  const mapped = new Map(Object.entries(model.labels).filter(([, entity]) => wanted.has(entity)));
  return {
    async find(text) {
      if (mapped.size === 0) return [];
      const found = await tagger.entities(text);
      return found.flatMap((e) => {
        const label = mapped.get(e.label);
        return label && e.score >= model.min_score && e.end > e.start
          ? [{ start: e.start, end: e.end, label }]
          : [];
      });
    },
  };
}
