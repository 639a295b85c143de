import {
  CATEGORY_DESCRIPTIONS,
  MODERATION_CATEGORIES,
} from "../../../guardrails/content-moderation/model/categories.js";
import { PII_ENTITIES } from "../../../guardrails/pii/entities.js";
import type { GuardrailId } from "../../../guardrails/types.js";
import type { FieldErrors } from "./field-errors.js";
import { GUARDRAILS_WITH_THRESHOLD, type PatternRow, type ProfileValues } from "./form-values.js";
import { describedBy, errorList, h, type Markup } from "./markup.js";

/** What a fieldset needs beyond the values: errors per field, and the model's own thresholds. */
export interface FieldContext {
  readonly values: ProfileValues;
  readonly errors: FieldErrors;
  readonly modelThresholds: Readonly<Partial<Record<GuardrailId, number>>>;
}

const DESCRIPTIONS: Record<GuardrailId, string> = {
  llm: "Prompt injection classifier (prompts)",
  vector: "Similarity to known attacks (prompts)",
  keyword: "Keyword and phrase list (prompts and responses)",
  regex: "Regular expression rules, RE2 syntax (prompts and responses)",
  pii: "Personal data (prompts and responses)",
  content_moderation: "Harmful content in responses",
  system_prompt_protection: "System prompt leaks in responses",
};

const described = (id: string, help: boolean, errors: readonly string[]) => {
  const value = describedBy(id, help, errors);
  return value === undefined ? "" : h` aria-describedby="${value}"`;
};
const invalid = (errors: readonly string[]) => (errors.length > 0 ? h` aria-invalid="true"` : "");

function threshold(id: GuardrailId, ctx: FieldContext): Markup {
  const field = `${id}-threshold`;
  const errors = ctx.errors.for(field);
  const typed = ctx.values.threshold[id] ?? "";
  const own = ctx.modelThresholds[id];
  const shown = own === undefined ? "" : `: ${own}`;
  const help =
    typed === ""
      ? `Not set: ${id === "vector" ? "the default" : "the model's own"} threshold applies${shown}.`
      : `Flags at or above this score, 0 to 1. Empty: the model's own${own === undefined ? "" : ` (${own})`}.`;
  return h`<div class="field"><label for="${field}">Threshold</label>
<input id="${field}" name="${id}.threshold" type="text" inputmode="decimal" value="${typed}" placeholder="${own ?? ""}"${described(field, true, errors)}${invalid(errors)}>
<p class="help" id="${field}-help">${help}</p>${errorList(field, errors)}</div>`;
}

function textarea(
  id: string,
  name: string,
  label: string,
  value: string,
  ctx: FieldContext,
  help: string,
): Markup {
  const errors = ctx.errors.for(id);
  return h`<div class="field"><label for="${id}">${label}</label>
<textarea id="${id}" name="${name}" rows="5"${described(id, true, errors)}${invalid(errors)}>${value}</textarea>
<p class="help" id="${id}-help">${help}</p>${errorList(id, errors)}</div>`;
}

function patternRow(row: PatternRow, i: number, ctx: FieldContext): Markup {
  const base = `regex-patterns-${i}`;
  const input = (field: string, label: string, value: string, extra = "") => {
    const id = `${base}-${field}`;
    const errors = ctx.errors.for(id);
    return h`<div class="field"><label for="${id}">${label}</label>
<input id="${id}" name="regex.patterns.${i}.${field}" type="text" value="${value}" data-regex-field="${field}"${described(id, false, errors)}${invalid(errors)} ${extra}>${errorList(id, errors)}</div>`;
  };
  const on = (value: string, label: string) =>
    h`<option value="${value}"${row.on === value ? h` selected` : ""}>${label}</option>`;
  return h`<fieldset class="regex-row" data-regex-row="${i}"><legend>Rule ${i + 1}</legend>
${input("name", "Name", row.name)}${input("pattern", "Pattern", row.pattern)}
<p class="field-error" id="${base}-live" data-regex-live role="alert"></p>
${input("flags", "Flags (i, m, s)", row.flags)}
<div class="field"><label for="${base}-on">Match on</label><select id="${base}-on" name="regex.patterns.${i}.on">${on("clean", "Text as written")}${on("folded", "Folded text (lower case, look-alikes folded)")}</select></div></fieldset>`;
}

/** Which endpoints keyword and regex check: both unless the profile narrows them. */
function appliesTo(id: "keyword" | "regex", ctx: FieldContext): Markup {
  const chosen = new Set(ctx.values.appliesTo[id] ?? ["input", "output"]);
  const group = `${id}-applies_to`;
  const errors = ctx.errors.for(group);
  const box = (mode: string, label: string) =>
    h`<label class="check"><input type="checkbox" name="${id}.applies_to" value="${mode}" id="${group}-${mode}"${chosen.has(mode) ? h` checked` : ""}> ${label}</label>`;
  return h`<fieldset id="${group}"${described(group, false, errors)}><legend>Checks</legend>
${box("input", "Prompts (input-check)")}${box("output", "Responses (output-check)")}${errorList(group, errors)}</fieldset>`;
}

function settings(id: GuardrailId, ctx: FieldContext): Markup | "" {
  const v = ctx.values;
  switch (id) {
    case "keyword": {
      const opt = (value: string, label: string) =>
        h`<option value="${value}"${v.match === value ? h` selected` : ""}>${label}</option>`;
      return h`${textarea("keyword-keywords", "keyword.keywords", "Keywords", v.keywords.join("\n"), ctx, "One keyword or phrase a line.")}
<div class="field"><label for="keyword-match">Match</label><select id="keyword-match" name="keyword.match">${opt("word", "Whole words and phrases")}${opt("substring", "Anywhere (substring)")}</select></div>
${appliesTo("keyword", ctx)}`;
    }
    case "regex": {
      const rows = [...v.patterns, { name: "", pattern: "", flags: "", on: "clean" }];
      return h`<div id="regex-patterns">${errorList("regex-patterns", ctx.errors.for("regex-patterns").length > 0 && v.patterns.length === 0 ? ctx.errors.for("regex-patterns") : [])}
${rows.map((row, i) => patternRow(row, i, ctx))}</div>
<p class="help">Leave a rule's name and pattern empty to remove it; the last, empty rule adds one.</p>
<button type="button" id="regex-add" hidden>Add a rule</button>
${appliesTo("regex", ctx)}`;
    }
    case "pii": {
      const chosen = new Set(v.entities ?? PII_ENTITIES);
      const errors = ctx.errors.for("pii-entities");
      return h`<fieldset id="pii-entities"${described("pii-entities", false, errors)}><legend>Entity types</legend>
${PII_ENTITIES.map((e) => h`<label class="check"><input type="checkbox" name="pii.entities" value="${e}" id="pii-entity-${e}"${chosen.has(e) ? h` checked` : ""}> ${e}</label>`)}
${errorList("pii-entities", errors)}</fieldset>`;
    }
    case "content_moderation": {
      const chosen = new Set(v.categories ?? MODERATION_CATEGORIES);
      const group = "content_moderation-categories";
      const errors = ctx.errors.for(group);
      return h`<fieldset id="${group}"${described(group, true, errors)}><legend>Harm categories flagged</legend>
<p class="help" id="${group}-help">An unsafe response is flagged only when its harm is a ticked one; untick a category to allow it (a medical app, say, SPECIALIZED_ADVICE).</p>
${MODERATION_CATEGORIES.map((c) => h`<label class="check described"><input type="checkbox" name="content_moderation.categories" value="${c}" id="content_moderation-category-${c}"${chosen.has(c) ? h` checked` : ""}> ${c} <small>${CATEGORY_DESCRIPTIONS[c]}</small></label>`)}
${errorList(group, errors)}</fieldset>`;
    }
    case "system_prompt_protection": {
      const prompt =
        v.systemPromptFile === undefined
          ? textarea(
              "system_prompt_protection-system_prompt",
              "system_prompt_protection.system_prompt",
              "System prompt",
              v.systemPrompt,
              ctx,
              "The app's system prompt, to recognise it in responses.",
            )
          : h`<p>System prompt read from <code>${v.systemPromptFile}</code> (edit that file).</p>`;
      return h`${prompt}${textarea("system_prompt_protection-canaries", "system_prompt_protection.canaries", "Canaries", v.canaries.join("\n"), ctx, "Secret marker strings planted in the system prompt, one a line.")}`;
    }
    default:
      return "";
  }
}

/** One guardrail's fieldset: on/off, its threshold when it has one, and its own settings. */
export function guardrailFieldset(id: GuardrailId, ctx: FieldContext): Markup {
  const enabled = ctx.values.enabled[id] === true;
  const field = `${id}-enabled`;
  const errors = ctx.errors.for(field);
  return h`<fieldset class="guardrail" id="g-${id}"><legend>${id}</legend>
<p class="help">${DESCRIPTIONS[id]}</p>
<div class="field"><label class="check"><input type="checkbox" id="${field}" name="${id}.enabled"${enabled ? h` checked` : ""}${described(field, false, errors)}> Enabled</label>${errorList(field, errors)}</div>
${GUARDRAILS_WITH_THRESHOLD.includes(id) ? threshold(id, ctx) : ""}
${settings(id, ctx)}</fieldset>`;
}
