import { z } from "zod";
import type { CheckMode } from "./types.js";

/**
 * `applies_to` of a guardrail that can check both prompts and responses: a profile may limit it to
 * one. Injection phrases are the case in point: a refusal that quotes "developer mode enabled" is
 * not an attack, and flagging responses for it cost 17 false positives on one benchmark.
 */
export const appliesToSetting = z
  .array(z.enum(["input", "output"]))
  .min(1, "list input, output or both; to switch the guardrail off, set enabled: false")
  .optional();

/**
 * Whether a guardrail runs for `mode`: where it can run (its definition's `appliesTo`), narrowed by
 * the profile's `applies_to` when it has one.
 */
export function appliesIn(
  definition: { readonly appliesTo: readonly CheckMode[] },
  settings: Readonly<Record<string, unknown>>,
  mode: CheckMode,
): boolean {
  if (!definition.appliesTo.includes(mode)) return false;
  const chosen = settings.applies_to;
  return !Array.isArray(chosen) || chosen.includes(mode);
}
