import type { Finding } from "../../guardrails/types.js";

/**
 * One guardrail's findings on several texts of a conversation, as one finding for `checks`: flagged
 * when any text is, the worst text's score (and threshold, category, signals), and every matched
 * item and entity type once, in the order found. Spans are dropped: they point into different texts.
 */
export function mergeFindings(findings: readonly Finding[]): Finding {
  const [first] = findings;
  if (!first) return { flagged: false };
  const worst = findings.reduce((a, b) => ((b.score ?? -1) > (a.score ?? -1) ? b : a), first);
  const union = (key: "matched" | "entities") => {
    const lists = findings.flatMap((f) => (f[key] ? [f[key]] : []));
    return lists.length === 0 ? {} : { [key]: [...new Set(lists.flat())] };
  };
  return {
    flagged: findings.some((f) => f.flagged),
    ...(worst.score === undefined ? {} : { score: worst.score }),
    ...(worst.threshold === undefined ? {} : { threshold: worst.threshold }),
    ...(worst.category === undefined ? {} : { category: worst.category }),
    ...(worst.signals === undefined ? {} : { signals: worst.signals }),
    ...union("matched"),
    ...union("entities"),
  };
}
