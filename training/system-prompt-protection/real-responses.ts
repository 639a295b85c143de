/**
 * Responses written by real language models that disclose no system prompt: the no-leak examples
 * the template generator cannot make. GPTFuzz's responses to jailbreak prompts (refusals, role-play
 * personas, partial compliance: what a model says to an attack), HarmBench's classifier-validation
 * generations (responses to adversarial requests), and GPTeacher's role-play and code answers
 * (long, formatted, imperative text). Read from ../shared at training time, never copied.
 *
 * Beside them, the project's own `datasets/leakage/instruction-answers.jsonl` (source
 * `written-instructions`): answers full of rules, procedures, policies, codes and bot instructions
 * written for the user, the no-leaks that look most like a disclosed system prompt.
 *
 * Each source is capped and split by text like the system prompts (60/15/25), and each response is
 * paired with a system prompt of its split, so the settings with a system prompt score it too.
 */
import { join } from "node:path";
import { readCsv } from "../lib/csv.js";
import { readJson, readJsonl } from "../lib/jsonl.js";
import { REPO } from "../lib/paths.js";
import type { Split } from "./families.js";
import { type LeakExample, splitOf } from "./generate.js";
import { hashString } from "./rng.js";

export const RESPONSE_SOURCES = [
  "gptfuzz",
  "harmbench",
  "gpteacher-roleplay",
  "gpteacher-codegen",
  "written-instructions",
] as const;
/** The project-written source: trained with `--written` (the bundled model since 2026-11-30). */
export const WRITTEN_SOURCE = "written-instructions";
const WRITTEN_FILE = join(REPO, "datasets/leakage/instruction-answers.jsonl");
export type ResponseSource = (typeof RESPONSE_SOURCES)[number];

export interface RealResponse {
  readonly source: ResponseSource;
  /** `responses/<source>/<hash of the text>`: its split key. */
  readonly id: string;
  readonly text: string;
  readonly prompt?: string;
}

/** Per source: enough to matter beside ~9,000 generated examples, few enough to keep runs short. */
const CAP = 600;
const MIN_CHARS = 20;

interface Teacher {
  instruction: string;
  input?: string;
  response: string;
}
interface HarmBenchRow {
  test_case: string;
  generation: string;
}

/** Every source's responses, deduplicated by text, at most CAP each (a hash order, not the file's). */
export function loadRealResponses(datasets: string, options: { written?: boolean } = {}): RealResponse[] {
  const raw: Record<ResponseSource, { text: string; prompt?: string }[]> = {
    gptfuzz: (() => {
      const dir = join(datasets, "moderation/gptfuzz");
      const questions = readCsv(join(dir, "question_list.csv"));
      const byIndex = new Map(questions.map((q) => [q.index ?? "", q.text ?? ""]));
      return readCsv(join(dir, "responses_labeled_train.csv")).map((r) => ({
        text: r.Response ?? "",
        prompt: byIndex.get(r.question ?? "") ?? "",
      }));
    })(),
    harmbench: Object.values(
      readJson<Record<string, HarmBenchRow[]>>(
        join(datasets, "moderation/harmbench-cls-val/text_behaviors_val_set.json"),
      ),
    )
      .flat()
      .map((r) => ({ text: r.generation, prompt: r.test_case })),
    "gpteacher-roleplay": teacher(join(datasets, "injection/benign/gpteacher_roleplay.json")),
    "gpteacher-codegen": teacher(join(datasets, "injection/benign/gpteacher_codegen_instruct.json")),
    [WRITTEN_SOURCE]:
      options.written === false
        ? []
        : readJsonl<{ text: string; prompt: string }>(WRITTEN_FILE).map((r) => ({
            text: r.text,
            prompt: r.prompt,
          })),
  };
  return RESPONSE_SOURCES.flatMap((source) => {
    const seen = new Set<string>();
    const rows: RealResponse[] = [];
    for (const r of raw[source]) {
      const text = r.text.trim();
      if (text.length < MIN_CHARS || seen.has(text)) continue;
      seen.add(text);
      rows.push({
        source,
        id: `responses/${source}/${hashString(text).toString(16)}`,
        text,
        ...(r.prompt ? { prompt: r.prompt } : {}),
      });
    }
    return rows.sort((a, b) => hashString(a.id) - hashString(b.id) || (a.id < b.id ? -1 : 1)).slice(0, CAP);
  });
}

function teacher(path: string) {
  return readJson<Teacher[]>(path).map((r) => ({
    text: r.response,
    prompt: r.input ? `${r.instruction}\n\n${r.input}` : r.instruction,
  }));
}

/** A real response as a no-leak example of `split`, scored against one of `groups` (system prompt ids). */
export function realExample(r: RealResponse, split: Split, groups: readonly string[]): LeakExample {
  if (!groups.length) throw new Error(`no system prompt to pair ${r.id} with`);
  return {
    group: groups[hashString(`pair:${r.id}`) % groups.length] as string,
    split,
    label: 0,
    // The written answers are the talk the no-system-prompt threshold is held to (combiners.ts).
    kind: r.source === WRITTEN_SOURCE ? "written_talk" : "real_response",
    response: r.text,
    ...(r.prompt ? { prompt: r.prompt, promptKind: "benign" as const } : {}),
  };
}

/** train.ts's split of real responses, paired with the prompts of the same split. */
export function realExamplesBySplit(
  responses: readonly RealResponse[],
  promptIds: readonly string[],
): LeakExample[] {
  const groups = { train: [] as string[], val: [] as string[], test: [] as string[] };
  for (const id of promptIds) groups[splitOf(id)].push(id);
  return responses.map((r) => realExample(r, splitOf(r.id), groups[splitOf(r.id)]));
}
