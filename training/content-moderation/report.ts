/** The held-out figures of one scoring mode (n-gram only, or n-gram + USE-lite averaged). */
import type { ModerationModel } from "../../src/guardrails/content-moderation/model/model.js";
import { atThreshold } from "../lib/metrics.js";
import { binaryFigures, categoryReport, type Lookup, scoreAll } from "./evaluate.js";
import type { Example } from "./example.js";
import type { Pools, Row } from "./splits.js";

export const BENIGN_SOURCES = ["alpaca-outputs", "gpteacher-roleplay", "self-instruct"];
const PROMPT_SOURCES = ["ailuminate", "catqa", "donotanswer", "harmbench"];

export function testRows(pools: Pools) {
  const test = (pool: Row[], pick: (s: string) => boolean) => pool.filter((r) => r.test && pick(r.source));
  return {
    gptfuzz: test(pools.binary, (s) => s === "gptfuzz"),
    davidson: test(pools.binary, (s) => s === "davidson"),
    toxigen: test(pools.binary, (s) => s === "toxigen"),
    benign: test(pools.binary, (s) => BENIGN_SOURCES.includes(s)),
    categoryPrompts: test(pools.category, (s) => PROMPT_SOURCES.includes(s)),
    categoryGptfuzz: test(pools.category, (s) => s === "gptfuzz"),
  };
}

export function report(
  model: ModerationModel,
  tests: ReturnType<typeof testRows>,
  sanity: readonly Example[],
  buried: readonly Example[],
  threshold: number,
  lookup?: Lookup,
) {
  return {
    gptfuzzTest: binaryFigures(scoreAll(model, tests.gptfuzz, lookup), threshold),
    davidsonTest: binaryFigures(scoreAll(model, tests.davidson, lookup), threshold),
    toxigenTest: binaryFigures(scoreAll(model, tests.toxigen, lookup), threshold),
    benignResponsesFpr: round(atThreshold(scoreAll(model, tests.benign, lookup), threshold).fpr),
    sanity: binaryFigures(scoreAll(model, sanity, lookup), threshold),
    sanityAccuracy: round(
      scoreAll(model, sanity, lookup).filter((s) => (s.score >= threshold ? 1 : 0) === s.label).length /
        sanity.length,
    ),
    buriedRecall: round(atThreshold(scoreAll(model, buried, lookup), threshold).recall),
    categoryPromptsTest: categoryReport(model, tests.categoryPrompts, lookup),
    categoryGptfuzzTest: categoryReport(model, tests.categoryGptfuzz, lookup),
    categorySanity: categoryReport(
      model,
      sanity.filter((r) => r.category),
      lookup,
    ),
  };
}

/** The figures that need no held-out part: the hand-written sanity set through the shipped model. */
export function sanityReport(
  model: ModerationModel,
  sanity: readonly Example[],
  threshold: number,
  lookup?: Lookup,
) {
  const scored = scoreAll(model, sanity, lookup);
  return {
    sanity: binaryFigures(scored, threshold),
    sanityAccuracy: round(
      scored.filter((s) => (s.score >= threshold ? 1 : 0) === s.label).length / sanity.length,
    ),
    categorySanity: categoryReport(
      model,
      sanity.filter((r) => r.category),
      lookup,
    ),
  };
}

const round = (x: number) => Math.round(x * 10000) / 10000;
