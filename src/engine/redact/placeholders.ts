/**
 * Placeholders for redacted personal data (`<EMAIL_ADDRESS_1>`), and putting the originals back in
 * a model's answer, whole or as it streams: a placeholder the stream splits across chunks is held
 * until it is whole, and nothing else is held.
 */

/** A placeholder's shape: an entity type and a number, in angle brackets. */
const PLACEHOLDER = /<[A-Z][A-Z_]*_\d+>/g;

/** Placeholder → the text it stands for, for one request only. */
export type Originals = ReadonlyMap<string, string>;

/** `text` with every placeholder of `originals` replaced by its original; others are left as written. */
export function restore(text: string, originals: Originals): string {
  if (originals.size === 0 || !text.includes("<")) return text;
  return text.replace(PLACEHOLDER, (found) => originals.get(found) ?? found);
}

/** Restores a text that arrives in pieces: `push` returns what can be shown now, `flush` the rest. */
export interface Restorer {
  push(piece: string): string;
  flush(): string;
}

export function createRestorer(originals: Originals): Restorer {
  const known = [...originals.keys()];
  let held = "";
  // The start of a known placeholder at the end of the text: held until the next piece decides.
  const partialFrom = (text: string) => {
    const at = text.lastIndexOf("<");
    if (at < 0 || text.includes(">", at)) return text.length;
    const tail = text.slice(at);
    return known.some((p) => p.length > tail.length && p.startsWith(tail)) ? at : text.length;
  };
  return {
    push(piece) {
      if (originals.size === 0) return piece;
      const text = held + piece;
      const cut = partialFrom(text);
      held = text.slice(cut);
      return restore(text.slice(0, cut), originals);
    },
    flush() {
      const rest = held;
      held = "";
      return rest;
    },
  };
}
