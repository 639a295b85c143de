import { MODERATION_CATEGORIES } from "../../../guardrails/content-moderation/model/categories.js";
import { PII_ENTITIES } from "../../../guardrails/pii/entities.js";

/** One regex rule as the form shows it: every field a string, empty when the profile omits it. */
export interface PatternRow {
  readonly name: string;
  readonly pattern: string;
  readonly flags: string;
  readonly on: string;
}

/**
 * What the Guardrails form edits, as strings and lists the way a person typed them: a number that
 * does not parse is kept as typed, so the loader (not the form) says what is wrong with it.
 */
export interface ProfileValues {
  readonly enabled: Readonly<Record<string, boolean>>;
  /** Per guardrail with a threshold; "" when the profile leaves it to the model. */
  readonly threshold: Readonly<Record<string, string>>;
  readonly keywords: readonly string[];
  readonly match: string;
  readonly patterns: readonly PatternRow[];
  /** undefined: the profile omits the list, so every entity type is checked. */
  readonly entities: readonly string[] | undefined;
  /** content_moderation's harm categories; undefined: the profile omits the list, so all of them. */
  readonly categories: readonly string[] | undefined;
  readonly systemPrompt: string;
  /** A prompt read from a file is shown, not edited here. */
  readonly systemPromptFile: string | undefined;
  readonly canaries: readonly string[];
  /** keyword's and regex's `applies_to`; undefined: the profile omits it, so both endpoints. */
  readonly appliesTo: Readonly<Record<"keyword" | "regex", readonly string[] | undefined>>;
}

type Raw = Record<string, unknown> | undefined;
const record = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const text = (v: unknown): string => (v === undefined || v === null ? "" : String(v));

export const GUARDRAILS_WITH_THRESHOLD = ["llm", "vector", "content_moderation", "system_prompt_protection"];

/** The form's values as the profile document says them. */
export function valuesFromDocument(raw: Raw): ProfileValues {
  const g = record(raw?.guardrails);
  const of = (id: string) => record(g[id]);
  const spp = of("system_prompt_protection");
  return {
    enabled: Object.fromEntries(Object.keys(g).map((id) => [id, of(id).enabled === true])),
    threshold: Object.fromEntries(GUARDRAILS_WITH_THRESHOLD.map((id) => [id, text(of(id).threshold)])),
    keywords: strings(of("keyword").keywords),
    match: text(of("keyword").match) || "word",
    patterns: (Array.isArray(of("regex").patterns) ? (of("regex").patterns as unknown[]) : []).map((p) => {
      const r = record(p);
      return {
        name: text(r.name),
        pattern: text(r.pattern),
        flags: text(r.flags),
        on: text(r.on) || "clean",
      };
    }),
    entities: Array.isArray(of("pii").entities) ? strings(of("pii").entities) : undefined,
    categories: Array.isArray(of("content_moderation").categories)
      ? strings(of("content_moderation").categories)
      : undefined,
    systemPrompt: text(spp.system_prompt),
    systemPromptFile: typeof spp.system_prompt_file === "string" ? spp.system_prompt_file : undefined,
    canaries: strings(spp.canaries),
    appliesTo: {
      keyword: Array.isArray(of("keyword").applies_to) ? strings(of("keyword").applies_to) : undefined,
      regex: Array.isArray(of("regex").applies_to) ? strings(of("regex").applies_to) : undefined,
    },
  };
}

export type FormBody = Record<string, string | File | (string | File)[]>;

const one = (body: FormBody, key: string): string => {
  const v = body[key];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === "string" ? first.replaceAll("\r\n", "\n") : "";
};
const all = (body: FormBody, key: string): string[] => {
  const v = body[key];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter(
    (x): x is string => typeof x === "string",
  );
};
const lines = (value: string) =>
  value
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

/**
 * A list of checkboxes (pii's entity types, content_moderation's categories) as the profile should
 * say it. A profile that lists none means all: ticking all (or, in a form without the boxes, none)
 * keeps it silent. The same ones ticked keep the profile's own order, so an unchanged save writes
 * nothing; a changed list is written in the boxes' order, whatever order the form sent.
 */
function ticked(
  chosen: readonly string[],
  before: readonly string[] | undefined,
  order: readonly string[],
): readonly string[] | undefined {
  if (before === undefined && (chosen.length === order.length || chosen.length === 0)) return undefined;
  const set = new Set(chosen);
  if (before !== undefined && before.length === set.size && before.every((x) => set.has(x))) return before;
  const rank = (x: string) => (order.includes(x) ? order.indexOf(x) : order.length);
  return [...set].sort((a, b) => rank(a) - rank(b));
}

/** The form's values as submitted (`hono`'s parseBody with `all: true`). */
export function valuesFromForm(body: FormBody, before: ProfileValues): ProfileValues {
  const ids = ["llm", "vector", "keyword", "regex", "pii", "content_moderation", "system_prompt_protection"];
  const patterns: PatternRow[] = [];
  for (let i = 0; `regex.patterns.${i}.pattern` in body; i++) {
    const row = (field: string) => one(body, `regex.patterns.${i}.${field}`).trim();
    if (row("pattern") === "" && row("name") === "") continue;
    patterns.push({
      name: row("name"),
      pattern: row("pattern"),
      flags: row("flags"),
      on: row("on") || "clean",
    });
  }
  // As with entity types (ticked): both ticked, or no boxes, on a profile that says nothing keeps it silent.
  const appliesTo = (id: "keyword" | "regex") => {
    const chosen = all(body, `${id}.applies_to`);
    return before.appliesTo[id] === undefined && (chosen.length === 2 || chosen.length === 0)
      ? undefined
      : chosen;
  };
  return {
    enabled: Object.fromEntries(ids.map((id) => [id, one(body, `${id}.enabled`) === "on"])),
    threshold: Object.fromEntries(
      GUARDRAILS_WITH_THRESHOLD.map((id) => [id, one(body, `${id}.threshold`).trim()]),
    ),
    keywords: lines(one(body, "keyword.keywords")),
    match: one(body, "keyword.match") || "word",
    patterns,
    entities: ticked(all(body, "pii.entities"), before.entities, PII_ENTITIES),
    categories: ticked(all(body, "content_moderation.categories"), before.categories, MODERATION_CATEGORIES),
    systemPrompt:
      before.systemPromptFile === undefined ? one(body, "system_prompt_protection.system_prompt") : "",
    systemPromptFile: before.systemPromptFile,
    canaries: lines(one(body, "system_prompt_protection.canaries")),
    appliesTo: { keyword: appliesTo("keyword"), regex: appliesTo("regex") },
  };
}
