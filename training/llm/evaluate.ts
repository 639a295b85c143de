/**
 * The model card's tables: the test split and the held-out sources scored through the classifier
 * that ships (src/guardrails/llm/classifier.ts, on the quantised weights), per slice and per
 * threshold rule, printed as they are made.
 */
import { type InjectionClassifier, loadInjectionClassifier } from "../../src/guardrails/llm/classifier.js";
import type { Rule, ThresholdRules } from "./calibrate.js";
import type { Embedded } from "./embed.js";
import { type Example, isData } from "./example.js";
import { markdownTable, ruleTable, slices } from "./report.js";
import type { Split } from "./split.js";

type Mode = "full" | "ngrams";

export interface CardInput {
  splits: Record<Split, Example[]>;
  embedded: Partial<Record<Split, Embedded[]>>;
  classifier: InjectionClassifier;
  rules: ThresholdRules;
  /** Both rules' thresholds per path; `full` only when an MLP was trained. */
  thresholds: { full?: Record<Rule, number>; ngrams: Record<Rule, number> };
  /** "v3" (refitted, thresholds from out-of-fold scores) or "v2.1" (one fit). */
  version: string;
  outOfFold: boolean;
  /** A model folder to score on the same sets. */
  compare?: string;
  ngramsOnly: boolean;
}

export async function cardTables(o: CardInput): Promise<string[]> {
  const evaluate = (c: InjectionClassifier, split: "test" | "heldout", mode: Mode) =>
    o.splits[split].map((example, i) => {
      const emb = mode === "full" ? o.embedded[split]?.[i] : undefined;
      return { example, score: c.score(example.text, emb, { data: isData(example) }) };
    });
  const report = (name: string, c: InjectionClassifier, mode: Mode, threshold: number) => {
    const table = markdownTable(slices(evaluate(c, "test", mode), evaluate(c, "heldout", mode), threshold));
    console.log(`\n### ${name} (threshold ${threshold})\n\n${table}`);
    return table;
  };
  const { maxFpr, pooled } = o.rules;
  const ruleLabel: Record<Rule, string> = {
    pooled: `pooled FPR ≤ ${maxFpr}, sources ≥ ${pooled.minSource} texts ≤ ${pooled.maxSourceFpr}`,
    balanced: `source-averaged FPR ≤ ${maxFpr}`,
  };
  const compareRules = (name: string, mode: Mode, thresholds: Record<Rule, number>) => {
    const [test, heldout] = [evaluate(o.classifier, "test", mode), evaluate(o.classifier, "heldout", mode)];
    const table = ruleTable(
      (["balanced", "pooled"] as const).map((r) => ({
        name: `${r}${r === o.rules.rule ? " (bundled)" : ""}: ${ruleLabel[r]}`,
        threshold: thresholds[r],
        rows: slices(test, heldout, thresholds[r]),
      })),
    );
    console.log(`\n### ${name}: threshold rules\n\n${table}`);
    return `### ${name}: threshold rules (calibration split${o.outOfFold ? ", out of fold" : ""}; same weights)\n\n${table}`;
  };

  const { classifier, version } = o;
  const tables: string[] = [];
  if (o.thresholds.full) tables.push(compareRules(`${version} full`, "full", o.thresholds.full));
  tables.push(compareRules(`${version} n-grams only`, "ngrams", o.thresholds.ngrams));
  if (o.thresholds.full)
    tables.push(
      `### ${version}: MLP over USE-lite windows + n-gram logits + cues (bundled; threshold ${classifier.threshold})\n\n${report("v2 full", classifier, "full", classifier.threshold)}`,
    );
  const ngramThreshold = classifier.header.threshold;
  tables.push(
    `### ${version} fallback: n-grams only, no encoder (threshold ${ngramThreshold})\n\n${report("v2 n-grams only", classifier, "ngrams", ngramThreshold)}`,
  );
  if (o.compare) {
    // A format-2 model with an MLP is compared through its full path (same windows and vectors).
    const other = await loadInjectionClassifier(o.compare);
    const mode: Mode = other.header.mlp && !o.ngramsOnly ? "full" : "ngrams";
    const name = `${other.header.mlp ? "previous model" : "v1"} (${o.compare}, ${mode === "full" ? "full" : "n-grams"}; threshold ${other.threshold})`;
    tables.push(`### ${name}\n\n${report(name, other, mode, other.threshold)}`);
  }
  return tables;
}
