import { z } from "zod";
import { PII_ENTITIES, type PiiEntity } from "./entities.js";
import { ownNerModel } from "./own-model.js";

const SUPPORTED = new Set<string>(PII_ENTITIES);

// A plain string checked by hand, so an unknown name gets one message listing every supported one.
const entityName = z.string().refine((name) => SUPPORTED.has(name), {
  error: (issue) => `unknown PII entity "${String(issue.input)}"; supported: ${PII_ENTITIES.join(", ")}`,
});

export const piiSettingsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  entities: z
    .array(entityName)
    .min(1)
    .default([...PII_ENTITIES])
    .transform((names) => names as PiiEntity[]),
  /** Bring your own NER model beside the rules and the bundled tagger (see own-model.ts). */
  model: ownNerModel.optional(),
});

export type PiiSettings = z.infer<typeof piiSettingsSchema>;
