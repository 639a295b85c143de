import { sentences } from "../../src/guardrails/system-prompt-protection/detector/sentences.js";
import { words } from "../../src/guardrails/system-prompt-protection/detector/tokens.js";
import type { SourcePrompt } from "./load-prompts.js";

/** What the generator reads out of one system prompt. */
export interface PromptFacts {
  readonly name: string;
  readonly sentences: readonly string[];
  /** Sentences that state a rule (imperatives, "you must", "if the user …"). */
  readonly rules: readonly string[];
  /** Frequent content words: what on-topic answers talk about. */
  readonly topics: readonly string[];
  /** Replies the prompt tells the model to give when asked for its instructions. */
  readonly cannedReplies: readonly string[];
}

const RULE =
  /\b(you (must|should|will|are|can|may|need|always|never)|do not|don't|never|always|must|only|avoid|ensure|make sure|respond|reply|answer|if (the )?users?|when (the )?users?|users? (will|may|can))\b/i;
const CANNED = /(?:respond|reply|say|answer|output|print)[^"“\n]{0,40}["“]([^"”\n]{5,200})["”]/gi;
const STOP = new Set(
  "about above after again against because before being below between could doing during every their there these those through under until where which while would should other others other's always never using based provide please users user information ensure create response responses content including example specific following without within include answer question questions instructions assistant".split(
    " ",
  ),
);

export function promptFacts(prompt: SourcePrompt): PromptFacts {
  const all = sentences(prompt.text, 400);
  const counts = new Map<string, number>();
  for (const w of words(prompt.text)) {
    if (w.length < 5 || STOP.has(w) || /\d/.test(w)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const topics = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 12)
    .map(([w]) => w);
  const cannedReplies = [...prompt.text.matchAll(CANNED)].map((m) => m[1] as string);
  const rules = all.filter((s) => RULE.test(s));
  return {
    name: prompt.name,
    sentences: all,
    rules: rules.length >= 2 ? rules : all,
    topics: topics.length >= 3 ? topics : [...topics, "this topic", "the details", "your project"],
    cannedReplies,
  };
}
