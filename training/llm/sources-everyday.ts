import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsv } from "../lib/csv.js";
import { createRng, type Example, example, shuffle } from "./example.js";

/**
 * Everyday sentences from the moderation sets, as negatives only: neutral ToxiGen statements and
 * Davidson tweets labelled "neither". They widen the benign vocabulary, so a single word that
 * happens to be common in jailbreaks ("restrictions", "rules") cannot carry a text alone.
 */
export function loadEveryday(moderationDir: string, seed: number, toxigen = 1500, tweets = 800): Example[] {
  const rng = createRng(seed);
  const dir = join(moderationDir, "toxigen");
  const sentences = new Set<string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.startsWith("neutral_"))
    .sort()) {
    for (const s of readFileSync(join(dir, file), "utf8").split(/\\n-|\n-?/u)) {
      const t = s.replace(/^-\s*/u, "").trim();
      if (t.split(" ").length >= 4) sentences.add(t);
    }
  }
  const out = shuffle([...sentences], rng)
    .slice(0, toxigen)
    .map((t, i) => example(t, 0, "toxigen-neutral", `toxigen:${i}`));
  const rows = readCsv(join(moderationDir, "davidson-hate-speech/labeled_data.csv"));
  const neither = rows.filter((r) => r.class === "2").map((r) => r.tweet ?? "");
  shuffle(neither, rng)
    .slice(0, tweets)
    .forEach((t, i) => {
      out.push(example(t, 0, "davidson-neither", `davidson:${i}`));
    });
  return out;
}
