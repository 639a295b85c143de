import { join } from "node:path";
import { readCsv } from "../lib/csv.js";
import { readJson, readJsonl, readLines } from "../lib/jsonl.js";
import { createRng, type Example, example, shuffle } from "./example.js";

// Model answers of at least this many words serve as long benign documents.
const LONG_WORDS = 80;
const LONG_PER_SOURCE = 400;

const wordCount = (text: string): number => text.split(/\s+/u).filter(Boolean).length;
const withInput = (instruction: string, input?: string): string =>
  input?.trim() ? `${instruction}\n\n${input}` : instruction;

/** Benign prompts (label 0) from ../shared/datasets/injection/benign, plus long answers as documents. */
export function loadBenign(dir: string, seed: number): Example[] {
  const rng = createRng(seed);
  const b = join(dir, "benign");
  const out: Example[] = [];
  const longDocs = (source: string, texts: string[]) => {
    const long = shuffle(
      texts.filter((t) => wordCount(t) >= LONG_WORDS),
      rng,
    ).slice(0, LONG_PER_SOURCE);
    long.forEach((text, i) => {
      out.push(example(text, 0, `${source}-answers`, `${source}-answers:${i}`, "long"));
    });
  };
  const alpaca = readJson(join(b, "alpaca_eval_outputs.json")) as { instruction: string; output: string }[];
  alpaca.forEach((row, i) => {
    out.push(example(row.instruction, 0, "alpaca_eval", `alpaca:${i}`));
  });
  longDocs(
    "alpaca_eval",
    alpaca.map((r) => r.output),
  );
  for (const file of ["self_instruct_seed_tasks.jsonl", "self_instruct_user_oriented.jsonl"]) {
    readJsonl<{ instruction: string; instances?: { input?: string }[] }>(join(b, file)).forEach((row, i) => {
      out.push(
        example(withInput(row.instruction, row.instances?.[0]?.input), 0, "self_instruct", `si:${file}:${i}`),
      );
    });
  }
  for (const row of readJsonl<{ question_id: number; turns: string[] }>(
    join(b, "mt_bench_questions.jsonl"),
  )) {
    for (const turn of row.turns) out.push(example(turn, 0, "mt_bench", `mt:${row.question_id}`));
  }
  readLines(join(b, "fuzzyai_benign_prompts.txt")).forEach((text, i) => {
    out.push(example(text, 0, "fuzzyai_benign", `fuzzy:${i}`));
  });
  const roleplay = readJson(join(b, "gpteacher_roleplay.json")) as {
    instruction: string;
    input: string;
    response: string;
  }[];
  roleplay.forEach((row, i) => {
    out.push(
      example(withInput(row.instruction, row.input), 0, "gpteacher_roleplay", `gpteacher:${i}`, "hard"),
    );
  });
  longDocs(
    "gpteacher_roleplay",
    roleplay.map((r) => r.response),
  );
  readCsv(join(b, "awesome_chatgpt_prompts.csv")).forEach((row, i) => {
    out.push(example(row.prompt ?? "", 0, "awesome_chatgpt_prompts", `acp:${i}`, "hard"));
  });
  (readJson(join(b, "mitre_frr.json")) as { mutated_prompt: string }[]).forEach((row, i) => {
    out.push(example(row.mutated_prompt, 0, "mitre_frr", `frr:${i}`, "hard"));
  });
  return out.filter((e) => e.text.trim().length > 0);
}

/** Harmful questions from the moderation sets: their `questions` fill jailbreak templates. */
export function loadHarmfulQuestions(moderationDir: string): { fill: string[]; plain: Example[] } {
  const fill = [
    ...readCsv(join(moderationDir, "gptfuzz/question_list.csv")).map((r) => r.text ?? ""),
    ...readCsv(join(moderationDir, "harmbench/harmbench_behaviors_text_all.csv"))
      .filter((r) => r.FunctionalCategory === "standard")
      .map((r) => r.Behavior ?? ""),
  ].filter(Boolean);
  // A different set stays plain, labelled 0: a harmful question with no jailbreak around it is
  // content moderation's job, and the jailbreak templates must not teach "harmful words = injection".
  const catqa = readJson(join(moderationDir, "catqa/catqa_english.json")) as Record<
    string,
    Record<string, string[]>
  >;
  const plain: Example[] = [];
  for (const [category, subs] of Object.entries(catqa)) {
    for (const [sub, questions] of Object.entries(subs)) {
      for (const q of questions.slice(0, 3))
        plain.push(example(q, 0, "catqa-plain", `catqa:${category}:${sub}`, "harmful-plain"));
    }
  }
  return { fill, plain };
}
