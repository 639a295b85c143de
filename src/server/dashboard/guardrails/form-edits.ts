import type { YamlEdit } from "../../../config/profile-edit.js";
import { GUARDRAIL_IDS } from "../../../guardrails/types.js";
import { GUARDRAILS_WITH_THRESHOLD, type PatternRow, type ProfileValues } from "./form-values.js";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A threshold as typed: a number when it is one, else the text, for the loader to name the problem. */
function thresholdValue(typed: string): unknown {
  if (typed === "") return undefined;
  const n = Number(typed);
  return Number.isFinite(n) ? n : typed;
}

/** A regex rule as YAML writes it: fields at their defaults are left out, as people write them. */
function patternEntry(row: PatternRow): Record<string, string> {
  return {
    ...(row.name === "" ? {} : { name: row.name }),
    pattern: row.pattern,
    ...(row.flags === "" ? {} : { flags: row.flags }),
    ...(row.on === "clean" ? {} : { on: row.on }),
  };
}

/**
 * The edits that turn the document `before` was read from into `after`: only values that differ,
 * so a save that changes one threshold touches one line. A guardrail's `enabled` comes first, so a
 * guardrail the profile did not list is added as `id:` with `enabled` as its first key.
 */
export function editsBetween(before: ProfileValues, after: ProfileValues): YamlEdit[] {
  const edits: YamlEdit[] = [];
  const change = (path: string[], from: unknown, to: unknown) => {
    if (!same(from, to)) edits.push({ path: ["guardrails", ...path], value: to });
  };
  for (const id of GUARDRAIL_IDS) {
    const was = before.enabled[id] ?? false;
    const now = after.enabled[id] ?? false;
    if (was !== now) edits.push({ path: ["guardrails", id, "enabled"], value: now });
    if (GUARDRAILS_WITH_THRESHOLD.includes(id)) {
      const from = before.threshold[id] ?? "";
      const to = after.threshold[id] ?? "";
      if (thresholdValue(from) !== thresholdValue(to)) change([id, "threshold"], from, thresholdValue(to));
    }
  }
  // An empty list the profile never had is not written: absent and empty mean the same.
  const list = (path: string[], from: readonly string[], to: readonly string[]) => {
    if (!(from.length === 0 && to.length === 0)) change(path, from, to);
  };
  list(["keyword", "keywords"], before.keywords, after.keywords);
  if (before.match !== after.match) change(["keyword", "match"], before.match, after.match);
  const rules = (rows: readonly PatternRow[]) => rows.map(patternEntry);
  if (!same(rules(before.patterns), rules(after.patterns)))
    change(["regex", "patterns"], undefined, rules(after.patterns));
  change(["pii", "entities"], before.entities, after.entities);
  change(["content_moderation", "categories"], before.categories, after.categories);
  if (before.systemPromptFile === undefined && before.systemPrompt !== after.systemPrompt) {
    const value = after.systemPrompt.trim() === "" ? undefined : after.systemPrompt;
    change(["system_prompt_protection", "system_prompt"], before.systemPrompt, value);
  }
  list(["system_prompt_protection", "canaries"], before.canaries, after.canaries);
  for (const id of ["keyword", "regex"] as const)
    change([id, "applies_to"], before.appliesTo[id], after.appliesTo[id]);
  return edits;
}
