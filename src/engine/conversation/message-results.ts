import type { MessageVerdict } from "../../api/types.js";
import type { GuardrailId } from "../../guardrails/types.js";
import type { ScanPart } from "./scan-plan.js";
import type { MessageTexts } from "./texts.js";

/** input-check's `messages` entry: the type is the client's (src/api/types.ts). */
export type MessageResult = MessageVerdict;

/** Every message's entry, from the parts scanned and the guardrails that flagged each part. */
export function messageResults(
  messages: readonly MessageTexts[],
  parts: readonly ScanPart[],
  flaggedBy: readonly (readonly GuardrailId[])[],
  order: readonly GuardrailId[],
): MessageResult[] {
  return messages.map((m) => {
    const mine = parts.flatMap((p, i) => (p.index === m.index ? [i] : []));
    const flagged = new Set(mine.flatMap((i) => flaggedBy[i] ?? []));
    return {
      index: m.index,
      role: m.role,
      scanned: mine.length > 0,
      // `order` is input-check's: its ids are the keys of InputChecks.
      flagged_by: order.filter((id) => flagged.has(id)) as MessageResult["flagged_by"],
      skipped_parts: m.skippedParts,
    };
  });
}
