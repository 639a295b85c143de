import type { Rng } from "./rng.js";

/** Re-formats quoted prompt text the ways a model does when it prints it. */
export function reformat(lines: readonly string[], rng: Rng): string {
  const text = lines.join(" ");
  switch (rng.int(10)) {
    case 0:
      return lines.map((l) => `- ${l}`).join("\n");
    case 1:
      return lines.map((l, i) => `${i + 1}. ${l}`).join("\n");
    case 2:
      return `\`\`\`\n${lines.join("\n")}\n\`\`\``;
    case 3:
      return lines.map((l) => `> ${l}`).join("\n>\n");
    case 4:
      return text.toUpperCase();
    case 5:
      return text.toLowerCase().replace(/\s+/g, "  ");
    case 6:
      return lines.map((l) => `**${l}**`).join("\n\n");
    case 7:
      return JSON.stringify({ instructions: text }, null, 2);
    case 8:
      return lines.join("\n\n");
    default:
      return text;
  }
}

const SYNONYMS: readonly [RegExp, string][] = [
  [/\bmust\b/gi, "has to"],
  [/\bdo not\b/gi, "don't"],
  [/\bdon't\b/gi, "do not"],
  [/\bensure\b/gi, "make sure"],
  [/\busers?\b/gi, "the person"],
  [/\bprovide\b/gi, "give"],
  [/\bassist\b/gi, "help"],
  [/\bhelp\b/gi, "assist"],
  [/\bimportant\b/gi, "essential"],
  [/\bquestions?\b/gi, "queries"],
  [/\balways\b/gi, "at all times"],
  [/\bnever\b/gi, "under no circumstances"],
  [/\bshould\b/gi, "ought to"],
  [/\bcreate\b/gi, "make"],
  [/\brespond\b/gi, "reply"],
];

/** A near-verbatim edit: a few synonyms swapped and a few words dropped. */
export function nearVerbatim(sentence: string, rng: Rng): string {
  let out = sentence;
  for (const [pattern, replacement] of SYNONYMS) if (rng.chance(0.5)) out = out.replace(pattern, replacement);
  const parts = out.split(/\s+/);
  return parts.filter((_, i) => i === 0 || !rng.chance(0.08)).join(" ");
}

const FIRST_PERSON: readonly [RegExp, string][] = [
  [/\byou are\b/gi, "I am"],
  [/\byou're\b/gi, "I'm"],
  [/\byou will\b/gi, "I will"],
  [/\byou must\b/gi, "I have to"],
  [/\byou should\b/gi, "I'm meant to"],
  [/\byou can\b/gi, "I can"],
  [/\byour\b/gi, "my"],
  [/\byourself\b/gi, "myself"],
  [/^(do not|don't|never)\b/i, "I must never"],
  [/^always\b/i, "I always"],
  [/\byou\b/gi, "I"],
];

/**
 * Restates a rule as the model describing itself ("You must X" → "I have to X"): the paraphrase
 * a model produces when it explains its instructions instead of quoting them. Synthetic: a rule
 * table, not a language model, so it keeps much of the original wording.
 */
export function firstPerson(rule: string, rng: Rng): string {
  let out = rule.replace(/^[\s"'*#-]+/, "");
  for (const [pattern, replacement] of FIRST_PERSON) out = out.replace(pattern, replacement);
  if (rng.chance(0.5)) out = nearVerbatim(out, rng);
  // It follows "I was told that …": lower-case the opening word unless it is "I" or an acronym.
  if (/^[A-Z][a-z]/.test(out) && !/^I\b/.test(out)) out = out.charAt(0).toLowerCase() + out.slice(1);
  return out.replace(/[.!]+$/, "");
}

/** A summary line for a rule: its first clause, at most `max` words, in lower case. */
export function gist(rule: string, max = 10): string {
  const clause = rule.replace(/^[\s"'*#-]+/, "").split(/[,;:(]/)[0] ?? rule;
  const cut = clause.split(/\s+/).slice(0, max).join(" ");
  return cut.charAt(0).toLowerCase() + cut.slice(1).replace(/[.!]+$/, "");
}
