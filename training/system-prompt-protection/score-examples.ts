/** Computes the detector's parts for generated examples, the way the detector itself does. */
import type { HashedModel } from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import { indexPrompt } from "../../src/guardrails/system-prompt-protection/detector/overlap.js";
import {
  computeParts,
  type PartsContext,
} from "../../src/guardrails/system-prompt-protection/detector/parts.js";
import {
  indexPromptSentences,
  type SentenceEncoder,
} from "../../src/guardrails/system-prompt-protection/detector/semantic.js";
import type { LeakExample } from "./generate.js";

/** The configured setting: no system prompt, a system prompt, or a system prompt plus the encoder. */
export type Setting = "" | "S" | "SE";

export interface PartsRow {
  readonly example: LeakExample;
  /** Parts computed with the originating prompt when the example has one. */
  readonly parts: Record<string, number>;
}

export async function scoreExamples(
  examples: readonly LeakExample[],
  systemPrompts: ReadonlyMap<string, string>,
  models: { disclosure: HashedModel; extraction: HashedModel },
  setting: Setting,
  encoder?: SentenceEncoder,
): Promise<PartsRow[]> {
  const contexts = new Map<string, PartsContext>();
  const rows: PartsRow[] = [];
  for (const example of examples) {
    let context = contexts.get(example.group);
    if (!context) {
      const text = systemPrompts.get(example.group) ?? "";
      context = {
        ...models,
        overlap: setting ? indexPrompt(text) : undefined,
        semantic: setting === "SE" && encoder ? await indexPromptSentences(encoder, text) : undefined,
      };
      contexts.set(example.group, context);
    }
    rows.push({ example, parts: await computeParts(context, example.response, example.prompt) });
  }
  return rows;
}

/** The parts each combiner reads, by key (see combinerKey in the detector). */
export function combinerFeatures(key: string): string[] {
  const names = ["disclosure", "disclosureWindow"];
  if (key.includes("P")) names.push("extraction");
  if (key.includes("S")) names.push("cover3", "cover5", "run", "reach", "contain");
  if (key.includes("E")) names.push("semMax", "semTop", "semFrac");
  return names;
}
