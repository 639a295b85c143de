/**
 * How a profile's `categories` list should read P(category | unsafe): compares the argmax rule with
 * "the listed categories hold at least t of it" on the category-labelled sets (data-categories.ts),
 * for the 13 lists that allow one category and the 13 that flag only one. In-sample: the shipped
 * category head was trained on these rows. Figures in README.md (content_moderation, Categories).
 *   node --import tsx training/content-moderation/measure-categories.ts [datasets dir]
 */
import {
  loadModerationModel,
  MODERATION_CATEGORIES,
  type ModerationCategory,
} from "../../src/guardrails/content-moderation/model/index.js";
import { loadCategorySets } from "./data-categories.js";

const model = await loadModerationModel();
const rows = loadCategorySets(process.argv[2] ?? "datasets").filter((r) => r.category);
const scored = rows.map((r) => ({
  gold: r.category as ModerationCategory,
  p: model.classify(r.text).categoryScores,
}));
console.log("rows", scored.length);
type Rule = {
  name: string;
  flag: (p: Record<ModerationCategory, number>, L: Set<ModerationCategory>) => boolean;
};
const argmax = (p: Record<ModerationCategory, number>) =>
  MODERATION_CATEGORIES.reduce((a, b) => (p[b] > p[a] ? b : a));
const mass = (p: Record<ModerationCategory, number>, L: Set<ModerationCategory>) =>
  [...L].reduce((s, c) => s + p[c], 0);
const maxL = (p: Record<ModerationCategory, number>, L: Set<ModerationCategory>) =>
  Math.max(...[...L].map((c) => p[c]));
const rules: Rule[] = [
  { name: "argmax listed", flag: (p, L) => L.has(argmax(p)) },
  ...[0.2, 0.3, 0.4, 0.5, 0.6].map((t) => ({
    name: `P(listed)>=${t}`,
    flag: (p: Record<ModerationCategory, number>, L: Set<ModerationCategory>) => mass(p, L) >= t,
  })),
  ...[0.2, 0.3].map((t) => ({
    name: `max listed>=${t}`,
    flag: (p: Record<ModerationCategory, number>, L: Set<ModerationCategory>) => maxL(p, L) >= t,
  })),
];
const scen = (kind: string) =>
  MODERATION_CATEGORIES.map(
    (c) => new Set(kind === "allow-one" ? MODERATION_CATEGORIES.filter((x) => x !== c) : [c]),
  );
console.log("per-row argmax accuracy", scored.filter((s) => argmax(s.p) === s.gold).length / scored.length);
for (const kind of ["allow-one", "only-one"]) {
  console.log(
    `\n${kind}: macro over 13 lists — recall on listed-category rows, false flags on unlisted rows, balanced acc`,
  );
  for (const r of rules) {
    let rec = 0,
      ff = 0,
      n = 0;
    for (const L of scen(kind)) {
      const pos = scored.filter((s) => L.has(s.gold));
      const neg = scored.filter((s) => !L.has(s.gold));
      if (!pos.length || !neg.length) continue;
      rec += pos.filter((s) => r.flag(s.p, L)).length / pos.length;
      ff += neg.filter((s) => r.flag(s.p, L)).length / neg.length;
      n++;
    }
    console.log(
      r.name.padEnd(18),
      "recall",
      (rec / n).toFixed(3),
      "falseflag",
      (ff / n).toFixed(3),
      "bal",
      ((rec / n + 1 - ff / n) / 2).toFixed(3),
    );
  }
}
