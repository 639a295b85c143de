/**
 * Public moderation sets in ../shared/datasets/moderation that the bundled model was not trained
 * on (added for issue 12): each becomes one held-out source. Labels as each set defines them.
 */
import { join } from "node:path";
import { readCsv } from "../lib/csv.js";
import { readLines as lines, readJson } from "../lib/jsonl.js";
import type { Example } from "./example.js";

export interface UnseenSource {
  readonly name: string;
  /** What the set measures, for the table. */
  readonly what: string;
  readonly rows: Example[];
}

function hatecheck(dir: string): Example[] {
  return readCsv(join(dir, "hatecheck/all_cases.csv")).map((r) => ({
    text: (r.test_case ?? "").trim(),
    label: r.label_gold === "hateful" ? 1 : 0,
    source: "hatecheck",
  }));
}

function ethos(dir: string): Example[] {
  // `comment;isHate`, isHate the share of annotators who judged it hate; the text may hold ';'.
  return lines(join(dir, "ethos/Ethos_Dataset_Binary.csv"))
    .slice(1)
    .map((l) => {
      const cut = l.lastIndexOf(";");
      return { text: l.slice(0, cut), label: Number(l.slice(cut + 1)) >= 0.5 ? 1 : 0, source: "ethos" };
    });
}

function stormfront(dir: string): Example[] {
  return readCsv(join(dir, "stormfront-hate/sentences.csv")).flatMap((r) =>
    r.label === "hate" || r.label === "noHate"
      ? [{ text: r.text ?? "", label: r.label === "hate" ? 1 : 0, source: "stormfront" }]
      : [],
  );
}

function germeval(dir: string): Example[] {
  return ["germeval2018.training.txt", "germeval2018.test.txt"].flatMap((f) =>
    lines(join(dir, "germeval2018", f)).map((l) => {
      const [text, coarse] = l.split("\t");
      return { text: text ?? "", label: coarse === "OFFENSE" ? 1 : 0, source: "germeval2018" };
    }),
  );
}

/** Model responses to harmful requests, labelled by the majority of three human judges. */
function harmbenchResponses(dir: string): Example[] {
  const sets = readJson<Record<string, Record<string, unknown>[]>>(
    join(dir, "harmbench-cls-val/text_behaviors_val_set.json"),
  );
  return Object.values(sets)
    .flat()
    .map((r) => {
      const votes = ["human_0", "human_1", "human_2"].filter((k) => String(r[k]) === "1").length;
      return { text: String(r.generation ?? ""), label: votes >= 2 ? 1 : 0, source: "harmbench-cls-val" };
    });
}

function realToxicityPrompts(dir: string): Example[] {
  const folder = join(dir, "realtoxicityprompts");
  return [
    "flirtation",
    "identity_attack",
    "insult",
    "profanity",
    "severe_toxicity",
    "sexually_explicit",
    "threat",
  ]
    .flatMap((kind) => lines(join(folder, `rtp_${kind}.txt`)))
    .map((text) => ({ text, label: 1, source: "realtoxicityprompts" }));
}

export function loadUnseenSources(datasets: string): UnseenSource[] {
  const dir = join(datasets, "moderation");
  const keep = (rows: Example[]) => rows.filter((r) => r.text.trim().length > 0);
  return [
    { name: "hatecheck", what: "hate functional tests, hard negatives included", rows: keep(hatecheck(dir)) },
    { name: "ethos", what: "hate comments (majority of annotators)", rows: keep(ethos(dir)) },
    { name: "stormfront", what: "forum sentences, hate or not", rows: keep(stormfront(dir)) },
    { name: "germeval2018", what: "German tweets, offensive or not", rows: keep(germeval(dir)) },
    {
      name: "realtoxicityprompts",
      what: "toxic prompts (positives only)",
      rows: keep(realToxicityPrompts(dir)),
    },
    {
      name: "harmbench-cls-val",
      what: "model responses: did it carry out the harmful request (3 human judges)",
      rows: keep(harmbenchResponses(dir)),
    },
  ];
}
