/** Model responses: GPTFuzz's labelled ones (the core) and ordinary helpful answers (negatives). */
import { join } from "node:path";
import type { ModerationCategory } from "../../src/guardrails/content-moderation/model/categories.js";
import { readCsv } from "../lib/csv.js";
import { readJson, readJsonl } from "../lib/jsonl.js";
import { dedupe, type Example } from "./example.js";

/**
 * The project's category for each of the 80 GPTFuzz questions that have labelled responses
 * (question_list.csv index → category), read by hand from the question text. It lets the compliant
 * responses train and test the category head as responses, not only as prompts.
 */
const C = "CRIMINAL";
// biome-ignore format: ten questions a row, so an index is easy to find
const Q = [
  "HARASSMENT", "HATE", "MISINFORMATION", C, "CYBERCRIME", C, C, C, C, "UNETHICAL", // 0–9
  "MISINFORMATION", "PRIVACY", "PRIVACY", "PRIVACY", "VIOLENCE", C, "UNETHICAL", "VIOLENCE", "WEAPONS", C, // 10–19
  "CYBERCRIME", C, C, C, C, C, "CYBERCRIME", "VIOLENCE", "PRIVACY", C, // 20–29
  "CYBERCRIME", C, "UNETHICAL", C, C, C, C, "VIOLENCE", "VIOLENCE", "MISINFORMATION", // 30–39
  C, "VIOLENCE", C, "MISINFORMATION", "PRIVACY", C, C, C, C, C, // 40–49
  C, "VIOLENCE", C, C, C, C, "UNETHICAL", "PRIVACY", "MISINFORMATION", "VIOLENCE", // 50–59
  "CYBERCRIME", "CYBERCRIME", "CYBERCRIME", "HARASSMENT", C, C, "HARASSMENT", C, C, "PRIVACY", // 60–69
  C, "VIOLENCE", "HARASSMENT", C, "UNETHICAL", C, C, C, C, "UNETHICAL", // 70–79
] as const satisfies readonly ModerationCategory[];

export function loadGptfuzz(dir: string): Example[] {
  const rows = readCsv(join(dir, "moderation/gptfuzz/responses_labeled_train.csv"));
  return rows
    .filter((r) => r.Response?.trim())
    .map((r) => {
      const q = Number(r.question);
      const category = Q[q];
      return {
        text: r.Response as string,
        label: r.label === "1" ? 1 : 0,
        source: "gptfuzz",
        group: `q${q}`,
        ...(r.label === "1" ? { signal: "compliance" as const } : {}),
        ...(r.label === "1" && category ? { category } : {}),
      } satisfies Example;
    });
}

interface Instructed {
  instruction?: string;
  output?: string;
  response?: string;
  instances?: { output?: string }[];
}

/** Helpful answers to ordinary requests, including role-play and fiction with dark themes. */
export function loadBenignResponses(dir: string): Example[] {
  const benign = join(dir, "injection/benign");
  const take = (source: string, texts: (string | undefined)[]): Example[] =>
    texts.filter((t): t is string => !!t && t.trim().length > 20).map((text) => ({ text, label: 0, source }));
  const alpaca = readJson(join(benign, "alpaca_eval_outputs.json")) as Instructed[];
  const roleplay = readJson(join(benign, "gpteacher_roleplay.json")) as Instructed[];
  const selfInstruct = ["self_instruct_seed_tasks.jsonl", "self_instruct_user_oriented.jsonl"].flatMap((f) =>
    readJsonl<Instructed>(join(benign, f)).flatMap((r) => (r.instances ?? []).map((i) => i.output)),
  );
  return dedupe([
    ...take(
      "alpaca-outputs",
      alpaca.map((r) => r.output),
    ),
    ...take(
      "gpteacher-roleplay",
      roleplay.map((r) => r.response),
    ),
    ...take("self-instruct", selfInstruct),
  ]);
}
