/**
 * The public moderation sets added for issue 12 (../shared/datasets/moderation/SOURCES.md): toxic
 * text people wrote (HateCheck, Ethos, Stormfront, GermEval 2018, RealToxicityPrompts, the Surge
 * profanity lexicon) and human-judged model responses to harmful requests (HarmBench's classifier
 * validation set). Labels as each set defines them; categories for the category head.
 */
import { join } from "node:path";
import type { ModerationCategory } from "../../src/guardrails/content-moderation/model/categories.js";
import { readCsv } from "../lib/csv.js";
import { readLines as lines, readJson } from "../lib/jsonl.js";
import { HARMBENCH } from "./data-categories.js";
import { stripTwitter } from "./data-toxicity.js";
import { dedupe, type Example } from "./example.js";

const toxic = (text: string, hateful: boolean, source: string, category: ModerationCategory = "HATE") =>
  (hateful ? { text, label: 1, signal: "toxic", category, source } : { text, label: 0, source }) as Example;

function hatecheck(dir: string): Example[] {
  return readCsv(join(dir, "hatecheck/all_cases.csv")).map((r) =>
    toxic((r.test_case ?? "").trim(), r.label_gold === "hateful", "hatecheck"),
  );
}

function ethos(dir: string): Example[] {
  // `comment;isHate`, isHate the share of annotators who judged it hate; the text may hold ';'.
  return lines(join(dir, "ethos/Ethos_Dataset_Binary.csv"))
    .slice(1)
    .map((l) => {
      const cut = l.lastIndexOf(";");
      return toxic(l.slice(0, cut), Number(l.slice(cut + 1)) >= 0.5, "ethos");
    });
}

function stormfront(dir: string): Example[] {
  return readCsv(join(dir, "stormfront-hate/sentences.csv")).flatMap((r) =>
    r.label === "hate" || r.label === "noHate" ? [toxic(r.text ?? "", r.label === "hate", "stormfront")] : [],
  );
}

/** German tweets; `|LBR|` is the set's line break. Abuse, insult and profanity are all harassment here. */
function germeval(dir: string): Example[] {
  return ["germeval2018.training.txt", "germeval2018.test.txt"].flatMap((f) =>
    lines(join(dir, "germeval2018", f)).map((l) => {
      const [text, coarse] = l.split("\t");
      const clean = stripTwitter((text ?? "").replaceAll("|LBR|", " "));
      return toxic(clean, coarse === "OFFENSE", "germeval2018", "HARASSMENT");
    }),
  );
}

const RTP: Record<string, ModerationCategory> = {
  flirtation: "SEXUAL",
  identity_attack: "HATE",
  insult: "HARASSMENT",
  profanity: "HARASSMENT",
  severe_toxicity: "HARASSMENT",
  sexually_explicit: "SEXUAL",
  threat: "VIOLENCE",
};

function realToxicityPrompts(dir: string): Example[] {
  return Object.entries(RTP).flatMap(([kind, category]) =>
    lines(join(dir, "realtoxicityprompts", `rtp_${kind}.txt`)).map((text) =>
      toxic(text, true, "realtoxicityprompts", category),
    ),
  );
}

/**
 * The Surge profanity lexicon as one-word toxic rows, weighted by severity (1 mild … 3 severe)/3:
 * a lexicon, not sentences, so each entry teaches its word n-grams and character n-grams.
 */
function surgeProfanity(dir: string): Example[] {
  return readCsv(join(dir, "surge-profanity/profanity_en.csv")).map((r) => {
    const kind = r.category_1 ?? "";
    const category: ModerationCategory = kind.startsWith("sexual anatomy")
      ? "SEXUAL"
      : /slur|religious|orientation|disability/.test(kind)
        ? "HATE"
        : "HARASSMENT";
    return {
      ...toxic(r.text ?? "", true, "surge-profanity", category),
      weight: Number(r.severity_rating) / 3,
    };
  });
}

/** Model responses to harmful requests, labelled by the majority of three human judges. */
function harmbenchResponses(dir: string): Example[] {
  const categoryOf = new Map(
    readCsv(join(dir, "harmbench/harmbench_behaviors_text_all.csv")).map((r) => [
      r.BehaviorID ?? "",
      HARMBENCH[r.SemanticCategory ?? ""],
    ]),
  );
  const sets = readJson<Record<string, Record<string, unknown>[]>>(
    join(dir, "harmbench-cls-val/text_behaviors_val_set.json"),
  );
  return Object.entries(sets).flatMap(([behavior, rows]) =>
    rows.map((r): Example => {
      const votes = ["human_0", "human_1", "human_2"].filter((k) => String(r[k]) === "1").length;
      const text = String(r.generation ?? "");
      const category = categoryOf.get(behavior);
      return votes >= 2
        ? {
            text,
            label: 1,
            signal: "compliance",
            source: "harmbench-cls-val",
            ...(category ? { category } : {}),
          }
        : { text, label: 0, source: "harmbench-cls-val" };
    }),
  );
}

/** Every new public source, de-duplicated within itself, empty texts dropped. */
export function loadPublicSources(datasets: string): Example[] {
  const dir = join(datasets, "moderation");
  return [
    hatecheck(dir),
    ethos(dir),
    stormfront(dir),
    germeval(dir),
    realToxicityPrompts(dir),
    surgeProfanity(dir),
    harmbenchResponses(dir),
  ].flatMap((rows) => dedupe(rows.filter((r) => r.text.trim().length > 0)));
}
