import { z } from "zod";
import { knownName } from "../known-name.js";
import { PII_ENTITIES, type PiiEntity } from "./entities.js";
import { ownNerModel } from "./own-model.js";

const entityName = knownName(PII_ENTITIES, "PII entity", "supported");

export const piiSettingsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  entities: z
    .array(entityName)
    .min(1)
    .default([...PII_ENTITIES])
    .transform((names) => names as PiiEntity[]),
  /**
   * What `guardrail proxy` does with personal data in a request: `flag` blocks it (as every check
   * does), `redact` replaces it with placeholders the upstream sees and restores them in its answer
   * (docs/proxy.md). input-check and output-check report it the same either way.
   */
  action: z.enum(["flag", "redact"], { error: "must be flag or redact" }).default("flag"),
  /** Bring your own NER model beside the rules and the bundled tagger (see own-model.ts). */
  model: ownNerModel.optional(),
});

export type PiiSettings = z.infer<typeof piiSettingsSchema>;
