/** Plain toxic text, so hate and abuse are UNSAFE even when no harmful request is in sight. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsv } from "../lib/csv.js";
import { dedupe, type Example } from "./example.js";

/**
 * Davidson et al. tweets: class 0 hate → HATE, 1 offensive → HARASSMENT, 2 neither → safe.
 * Retweet markers, @mentions, URLs and HTML entities are Twitter noise a response never has;
 * left in, the model would learn "RT @" as a toxicity cue.
 */
export const stripTwitter = (tweet: string): string =>
  tweet
    .replace(/&amp;/g, "&")
    .replace(/&#?\w+;/g, " ")
    .replace(/\bRT\b|@\w+:?|https?:\/\/\S+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

export function loadDavidson(dir: string): Example[] {
  const rows = readCsv(join(dir, "moderation/davidson-hate-speech/labeled_data.csv"));
  const examples = rows.map((r): Example => {
    const text = stripTwitter(r.tweet ?? "");
    if (r.class === "0") return { text, label: 1, signal: "toxic", category: "HATE", source: "davidson" };
    if (r.class === "1")
      return { text, label: 1, signal: "toxic", category: "HARASSMENT", source: "davidson" };
    return { text, label: 0, source: "davidson" };
  });
  return dedupe(examples.filter((e) => e.text.length >= 8));
}

/** ToxiGen few-shot blocks: one sentence per `\n-` (written literally as backslash-n). */
export function loadToxigen(dir: string): Example[] {
  const base = join(dir, "moderation/toxigen");
  const out: Example[] = [];
  for (const file of readdirSync(base).sort()) {
    const hate = file.startsWith("hate_");
    const group = file.replace(/^(hate|neutral)_|_1k\.txt$/g, "");
    for (const line of readFileSync(join(base, file), "utf8").split("\n")) {
      for (const part of line.split(/\\n|(?<=[a-z?.!])- (?=[a-z])/i)) {
        const text = part.trim().replace(/^-\s*/, "").trim();
        if (text.length < 8) continue;
        out.push(
          hate
            ? { text, label: 1, signal: "toxic", category: "HATE", source: "toxigen", group }
            : { text, label: 0, source: "toxigen", group },
        );
      }
    }
  }
  return dedupe(out);
}
