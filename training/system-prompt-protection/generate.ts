/**
 * The labelled leak / no-leak generator: for one system prompt, responses that leak it (label 1)
 * and responses that do not (label 0), each paired with an originating prompt or none. Pure and
 * seeded: the same prompt, split and seed give the same examples.
 */
import { family, fill, type Split } from "./families.js";
import type { SourcePrompt } from "./load-prompts.js";
import { type PromptFacts, promptFacts } from "./prompt-facts.js";
import { createRng, hashString, type Rng } from "./rng.js";
import { ANSWERS, GENERIC_ANSWERS, INSTRUCTIONAL } from "./templates-answers.js";
import {
  ABSTRACT_LEAKS,
  PARAPHRASE_FRAMES,
  QUOTE_FRAMES,
  SPLICE_CONNECTORS,
  SUMMARY_FRAMES,
} from "./templates-leak.js";
import { BENIGN_PROMPTS, EXTRACTION_PROMPTS } from "./templates-prompts.js";
import { MENTIONS, REFUSALS } from "./templates-refusals.js";
import { firstPerson, gist, nearVerbatim, reformat } from "./transforms.js";
import { pseudoTranslate } from "./translate.js";

export type LeakKind =
  | "verbatim"
  | "near_verbatim"
  | "paraphrase"
  | "summary"
  | "translation"
  | "spliced"
  /** A leak the project wrote by hand, with the system prompt it discloses (written-rows.ts). */
  | "written_leak";
export type SafeKind =
  | "answer"
  | "instructional"
  | "refusal"
  | "canned_refusal"
  | "mention"
  | "generic"
  | "real_response"
  /** A no-leak answer the project wrote by hand that talks about rules, prompts or codes (written-rows.ts). */
  | "written_talk";

export interface LeakExample {
  readonly group: string;
  readonly split: Split;
  readonly label: 0 | 1;
  readonly kind: LeakKind | SafeKind;
  readonly response: string;
  readonly prompt?: string;
  /** What the originating prompt is: the extraction classifier's label. */
  readonly promptKind?: "extraction" | "benign";
}

/** The prompt a response answers, and whether it tried to extract the instructions. */
type Asked = Required<Pick<LeakExample, "prompt" | "promptKind">>;

/** Group split by system prompt: 60% train, 15% validation (combiner, threshold), 25% test. */
export function splitOf(id: string): Split {
  const bucket = hashString(`split:${id}`) % 100;
  return bucket < 60 ? "train" : bucket < 75 ? "val" : "test";
}

function chunk(facts: PromptFacts, rng: Rng, min: number, max: number): string[] {
  const n = Math.min(facts.sentences.length, min + rng.int(max - min + 1));
  const start = rng.int(Math.max(1, facts.sentences.length - n + 1));
  return facts.sentences.slice(start, start + n);
}

function vars(facts: PromptFacts, rng: Rng): Record<string, string> {
  const t = rng.shuffle(facts.topics);
  const source = rng.pick(facts.sentences).split(/\s+/);
  const at = rng.int(Math.max(1, source.length - 3));
  return {
    t1: t[0] ?? "",
    t2: t[1] ?? "",
    t3: t[2] ?? "",
    t4: t[3] ?? "",
    topic: t[0] ?? "",
    name: facts.name,
    phrase: source.slice(at, at + 3).join(" "),
  };
}

/**
 * `attacks` are the public extraction prompts this split may use, half the extraction attempts;
 * the project's own (`EXTRACTION_PROMPTS`) are the other half, or none with `ownAttacks: false`
 * (leave-one-source-out holds each kind of attack out in turn).
 */
export function generateExamples(
  prompt: SourcePrompt,
  split: Split,
  attacks: readonly string[],
  seed: number,
  { ownAttacks = true }: { ownAttacks?: boolean } = {},
): LeakExample[] {
  const facts = promptFacts(prompt);
  const rng = createRng(seed ^ hashString(prompt.id));
  const pick = (items: readonly string[]) => fill(rng.pick(family(items, split)), vars(facts, rng));
  const extraction = () =>
    attacks.length && (!ownAttacks || rng.chance(0.5)) ? rng.pick(attacks) : pick(EXTRACTION_PROMPTS);
  // Leaks mostly answer an extraction attempt, refusals nearly always do, normal answers rarely.
  const asked = (pExtract: number, pBenign: number): Asked | undefined => {
    const r = rng.next();
    if (r < pExtract) return { prompt: extraction(), promptKind: "extraction" };
    return r < pExtract + pBenign ? { prompt: pick(BENIGN_PROMPTS), promptKind: "benign" } : undefined;
  };
  const out: LeakExample[] = [];
  const add = (label: 0 | 1, kind: LeakExample["kind"], response: string, originating: Asked | undefined) =>
    out.push({ group: prompt.id, split, label, kind, response, ...originating });
  const quote = (text: string) => fill(rng.pick(family(QUOTE_FRAMES, split)), { text });
  const restate = (rule: string) =>
    fill(rng.pick(family(PARAPHRASE_FRAMES, split)), { rule: firstPerson(rule, rng) });

  add(1, "verbatim", quote(reformat(chunk(facts, rng, 1, 2), rng)), asked(0.7, 0.15));
  add(1, "verbatim", quote(reformat(chunk(facts, rng, 3, 8), rng)), asked(0.7, 0.15));
  const whole = prompt.text.length <= 2500 ? prompt.text : chunk(facts, rng, 10, 14).join("\n");
  add(1, "verbatim", quote(rng.chance(0.5) ? whole : reformat(whole.split("\n"), rng)), asked(0.7, 0.15));
  for (let i = 0; i < 2; i++) {
    const edited = chunk(facts, rng, 2, 5).map((s) => nearVerbatim(s, rng));
    add(1, "near_verbatim", quote(reformat(edited, rng)), asked(0.7, 0.15));
  }
  for (let i = 0; i < 2; i++) {
    const rules = rng.shuffle(facts.rules).slice(0, 1 + rng.int(3));
    add(1, "paraphrase", rules.map(restate).join(rng.chance(0.5) ? " " : "\n"), asked(0.7, 0.15));
  }
  for (let i = 0; i < 2; i++) {
    const gists = rng
      .shuffle(facts.rules)
      .slice(0, 3 + rng.int(4))
      .map((r) => gist(r));
    const head = fill(rng.pick(family(SUMMARY_FRAMES, split)), vars(facts, rng));
    const body = rng.chance(0.6) ? gists.map((g) => `- ${g}`).join("\n") : `I ${gists.join(", I ")}.`;
    add(1, "summary", `${head}\n${body}`, asked(0.7, 0.15));
  }
  add(1, "summary", pick(ABSTRACT_LEAKS), asked(0.7, 0.15));
  add(1, "translation", pseudoTranslate(chunk(facts, rng, 2, 5), rng), asked(0.8, 0.1));
  for (let i = 0; i < 2; i++) {
    const leak = rng.chance(0.6) ? chunk(facts, rng, 1, 3).join(" ") : restate(rng.pick(facts.rules));
    const paragraphs = pick(ANSWERS).split("\n\n");
    const at = rng.int(paragraphs.length + 1);
    paragraphs.splice(at, 0, fill(rng.pick(family(SPLICE_CONNECTORS, split)), { text: leak }));
    add(1, "spliced", paragraphs.join("\n\n"), asked(0.4, 0.5));
  }

  for (let i = 0; i < 6; i++) add(0, "answer", pick(ANSWERS), asked(0.1, 0.7));
  for (let i = 0; i < 2; i++) add(0, "refusal", pick(REFUSALS), asked(0.85, 0));
  const canned = facts.cannedReplies.length ? rng.pick(facts.cannedReplies) : pick(REFUSALS);
  add(0, facts.cannedReplies.length ? "canned_refusal" : "refusal", canned, asked(0.85, 0));
  for (let i = 0; i < 2; i++) add(0, "mention", pick(MENTIONS), asked(0.5, 0.3));
  add(0, "generic", pick(GENERIC_ANSWERS), asked(0.1, 0.6));
  for (let i = 0; i < 2; i++) add(0, "instructional", pick(INSTRUCTIONAL), asked(0.2, 0.6));
  return out;
}
