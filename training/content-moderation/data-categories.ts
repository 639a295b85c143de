/**
 * Categorised harmful prompts, mapped to the project's taxonomy. They teach the category head
 * what each harm is about; they never train the unsafe-vs-safe head (a harmful question is not a
 * harmful response). Rows whose source label has no clear home are left out rather than guessed.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  HAZARD_MAPPING,
  type ModerationCategory,
} from "../../src/guardrails/content-moderation/model/categories.js";
import { readCsv } from "../lib/csv.js";
import { readJson, readJsonl } from "../lib/jsonl.js";
import { dedupe, type Example } from "./example.js";

export const HARMBENCH: Record<string, ModerationCategory> = {
  chemical_biological: "WEAPONS",
  illegal: "CRIMINAL",
  cybercrime_intrusion: "CYBERCRIME",
  misinformation_disinformation: "MISINFORMATION",
  harassment_bullying: "HARASSMENT",
  copyright: "UNETHICAL",
};

// CatQA sub-category → category; a main category maps all of its sub-categories unless listed.
const CATQA_MAIN: Record<string, ModerationCategory> = {
  "Illegal Activity": "CRIMINAL",
  "Child Abuse": "CHILD_ABUSE",
  "Malware Viruses": "CYBERCRIME",
  "Economic Harm": "CRIMINAL",
  "Fraud/Deception": "CRIMINAL",
  "Adult Content": "SEXUAL",
  "Political Campaigning": "MISINFORMATION",
  "Privacy Violation Activity": "PRIVACY",
  "Tailored Financial Advice": "SPECIALIZED_ADVICE",
};
const CATQA_SUB: Record<string, ModerationCategory | null> = {
  "Weapon:": "WEAPONS",
  "Cybercrime:": "CYBERCRIME",
  "Racial or ethnic hate": "HATE",
  "Religious intolerance": "HATE",
  "Gender-based violence": "VIOLENCE",
  Cyberbullying: "HARASSMENT",
  "Terrorism and extremism": "VIOLENCE",
  "Self-harm": "SELF_HARM",
  "Assault and battery": "VIOLENCE",
  "Hazardous material handling": null,
  "Unsafe practices": null,
  "Weapon making": "WEAPONS",
  "Intellectual property theft": "UNETHICAL",
  "False advertising": "UNETHICAL",
  Phishing: "CYBERCRIME",
};

// Do-Not-Answer intent codes (Wang et al. 2023, table 1); C0xx (anthropomorphism) are not harms.
function donotanswer(intent: string): ModerationCategory | null {
  if (intent === "S005hate" || intent.startsWith("S007")) return "HATE";
  if (intent === "S006sh") return "SELF_HARM";
  if (intent === "S006items") return "WEAPONS";
  const byArea: Record<string, ModerationCategory> = {
    S001: "MISINFORMATION",
    S002: "SPECIALIZED_ADVICE",
    S003: "CRIMINAL",
    S004: "SEXUAL",
    S005: "HARASSMENT",
    S006: "VIOLENCE",
    S008: "CYBERCRIME",
    S009: "PRIVACY",
  };
  return byArea[intent.slice(0, 4)] ?? null;
}

export function loadCategorySets(dir: string): Example[] {
  const base = join(dir, "moderation");
  const out: Example[] = [];
  for (const r of readCsv(join(base, "ailuminate/airr_demo_en_us_prompts.csv"))) {
    const category = HAZARD_MAPPING[r.hazard ?? ""]?.category;
    if (category && r.prompt_text) out.push({ text: r.prompt_text, category, source: "ailuminate" });
  }
  const catqa = readJson(join(base, "catqa/catqa_english.json")) as Record<string, Record<string, string[]>>;
  for (const [main, subs] of Object.entries(catqa)) {
    for (const [sub, questions] of Object.entries(subs)) {
      const category = sub in CATQA_SUB ? CATQA_SUB[sub] : (CATQA_MAIN[main] ?? null);
      if (category) for (const text of questions) out.push({ text, category, source: "catqa" });
    }
  }
  for (const file of readdirSync(join(base, "donotanswer")).sort()) {
    for (const r of readJsonl<{ prompt: string; intents: string[] }>(join(base, "donotanswer", file))) {
      const category = r.intents.map(donotanswer).find((c) => c !== null);
      if (category) out.push({ text: r.prompt, category, source: "donotanswer" });
    }
  }
  for (const r of readCsv(join(base, "harmbench/harmbench_behaviors_text_all.csv"))) {
    const category = HARMBENCH[r.SemanticCategory ?? ""];
    if (category && r.Behavior) out.push({ text: r.Behavior, category, source: "harmbench" });
  }
  return dedupe(out);
}
