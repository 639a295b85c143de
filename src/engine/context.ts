import type { Finding, Span } from "../guardrails/types.js";

/**
 * Checking a streamed response one chunk at a time: the caller sends the text that came before
 * the chunk as `context`, the engine checks `context + message` as one text, and the guardrails
 * that report spans (`reportsSpans`) report only what the chunk completes. Everything here works
 * on `text.clean` offsets, the coordinates of `Span`.
 */

/**
 * Where the message starts in the clean text of `context + message`: the length of what it shares
 * with the clean text of the context alone. Usually the context's clean length; shorter when
 * normalisation joins across the boundary (a combining accent that starts the message composes with
 * the context's last letter), so that such a character counts as new.
 */
export function contextBoundary(contextClean: string, combinedClean: string): number {
  const most = Math.min(contextClean.length, combinedClean.length);
  let at = 0;
  while (at < most && contextClean.charCodeAt(at) === combinedClean.charCodeAt(at)) at++;
  // Never between the halves of a surrogate pair.
  const previous = contextClean.charCodeAt(at - 1);
  if (at > 0 && at < most && previous >= 0xd800 && previous <= 0xdbff) at--;
  return at;
}

const key = (span: Span) => `${span.start}\u0000${span.label}`;

/**
 * `finding` (of `context + message`, spans from `spansFrom: boundary`) reduced to what the message
 * completes. A span that ends at or before the boundary lies wholly in the context: it was reported
 * for an earlier chunk. A span across the boundary is new, unless the context alone already has a
 * match of the same label starting at the same place (an e-mail address that the chunk only
 * lengthens): `contextAlone(from)` checks the context with `spansFrom: from` and is called only
 * when some span crosses. `matched` and `entities` keep the guardrail's own order and duplicates,
 * less the labels no kept span has. A finding whose spans were cut short is reported as it is:
 * which matches its spans cover cannot be told, and reporting twice beats missing one.
 */
export async function completedByMessage(
  finding: Finding,
  boundary: number,
  contextAlone: (from: number) => Promise<Finding | undefined>,
): Promise<Finding> {
  if (finding.spansCut) return finding;
  const spans = (finding.spans ?? []).filter((s) => s.end > boundary);
  const crossing = spans.filter((s) => s.start < boundary);
  let earlier = new Set<string>();
  if (crossing.length > 0) {
    const before = await contextAlone(Math.min(...crossing.map((s) => s.start)));
    earlier = new Set((before?.spans ?? []).map(key));
  }
  const kept = spans.filter((s) => s.start >= boundary || !earlier.has(key(s)));
  const labels = new Set(kept.map((s) => s.label));
  const flagged = kept.length > 0;
  return {
    ...finding,
    flagged,
    spans: kept,
    ...(finding.matched ? { matched: finding.matched.filter((m) => labels.has(m)) } : {}),
    ...(finding.entities ? { entities: finding.entities.filter((e) => labels.has(e)) } : {}),
    ...(finding.score === undefined ? {} : { score: flagged ? finding.score : 0 }),
  };
}
