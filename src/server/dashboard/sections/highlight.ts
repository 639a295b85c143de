import type { Span } from "../../../guardrails/types.js";
import { fragment, type Html, join } from "../html.js";

export interface LabelledSpan extends Span {
  readonly guardrail: string;
}

/**
 * `text` with every span marked. Spans may overlap (a keyword inside a regex match): the text is
 * cut at every span edge and each piece is marked with the labels of all spans covering it.
 */
export function highlight(text: string, spans: readonly LabelledSpan[]): Html {
  const inside = spans.filter((s) => s.start < s.end && s.start >= 0 && s.end <= text.length);
  const edges = [...new Set([0, text.length, ...inside.flatMap((s) => [s.start, s.end])])].sort(
    (a, b) => a - b,
  );
  const pieces: Html[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = edges[i] as number;
    const to = edges[i + 1] as number;
    const piece = text.slice(from, to);
    const covering = inside.filter((s) => s.start <= from && s.end >= to);
    if (covering.length === 0) {
      pieces.push(fragment`${piece}`);
      continue;
    }
    const label = [...new Set(covering.map((s) => `${s.guardrail}: ${s.label}`))].join(", ");
    pieces.push(
      fragment`<mark title="${label}"><span class="visually-hidden">[${label}] </span>${piece}</mark>`,
    );
  }
  return join(pieces);
}
