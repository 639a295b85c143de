import { createAddressRecognizer } from "./address.js";
import { creditCardRecognizer } from "./credit-card.js";
import { cryptoRecognizer } from "./crypto-wallet.js";
import { dateTimeRecognizer } from "./date-time.js";
import { emailRecognizer, urlRecognizer } from "./email-url.js";
import { NAME_ENTITIES, type PiiEntity, PRIORITY } from "./entities.js";
import { ibanRecognizer } from "./iban.js";
import { ipRecognizer } from "./ip-address.js";
import { loadLexicon } from "./lexicon.js";
import { createNameRecognizer } from "./names.js";
import { phoneRecognizer } from "./phone.js";
import type { PiiSpan, Recognizer } from "./recognizer.js";
import { secretsRecognizer } from "./secrets.js";
import { loadTaggerModel, type TaggerModel } from "./tagger/model.js";
import { createTaggerRecognizer, type WordStatesOf } from "./tagger/tagger.js";
import { usIdRecognizer } from "./us-ids.js";

const PATTERN_RECOGNIZERS: readonly Recognizer[] = [
  secretsRecognizer,
  emailRecognizer,
  urlRecognizer,
  creditCardRecognizer,
  ibanRecognizer,
  usIdRecognizer,
  ipRecognizer,
  cryptoRecognizer,
  phoneRecognizer,
  dateTimeRecognizer,
];

export type PiiDetect = (text: string) => PiiSpan[];

export interface PiiDetectOptions {
  /**
   * How PERSON, LOCATION, ORGANIZATION (and more ADDRESS) are found: the trained tagger (default;
   * the better of the two, see models/pii/tagger/MODEL_CARD.md) or the older lexicon rules.
   */
  readonly names?: "tagger" | "rules";
  /** The tagger's weights; loaded once per process from models/pii/tagger when not given. */
  readonly tagger?: TaggerModel;
  /** The encoder's word states of a text, for a tagger trained with them (its `dense` weights). */
  readonly wordStates?: WordStatesOf;
}

/**
 * Builds a detector for the chosen entities. Lexicons and tagger weights are read only when a name
 * entity is wanted, so a profile that checks just cards and keys never touches the disk. Address
 * rules run beside the tagger: overlaps go to the more specific type (see PRIORITY).
 */
export function createPiiDetect(entities: ReadonlySet<PiiEntity>, options: PiiDetectOptions = {}): PiiDetect {
  const recognizers = PATTERN_RECOGNIZERS.filter((r) => r.entities.some((e) => entities.has(e)));
  if (NAME_ENTITIES.some((e) => entities.has(e))) {
    const lexicon = loadLexicon();
    recognizers.push(createAddressRecognizer(lexicon));
    const names = NAME_ENTITIES.filter((e) => entities.has(e));
    if (options.names === "rules") recognizers.push(createNameRecognizer(lexicon));
    else
      recognizers.push(
        createTaggerRecognizer(options.tagger ?? loadTaggerModel(), lexicon, names, options.wordStates),
      );
  }
  return (text) => {
    const found: PiiSpan[] = [];
    for (const recognizer of recognizers) recognizer.find(text, found);
    return resolveOverlaps(found.filter((s) => entities.has(s.label)));
  };
}

/**
 * Keeps the highest-priority finding where findings overlap (then the longer one), in text order.
 * Kept spans never overlap, so each character belongs to at most one: marking them makes the test
 * for a new span cost its length, where comparing it with every kept span was O(spans²).
 * Recognisers never report empty spans.
 */
export function resolveOverlaps(spans: PiiSpan[]): PiiSpan[] {
  spans.sort(
    (a, b) =>
      PRIORITY[b.label] - PRIORITY[a.label] || b.end - b.start - (a.end - a.start) || a.start - b.start,
  );
  let size = 0;
  for (const s of spans) size = Math.max(size, s.end);
  const taken = new Uint8Array(size);
  const kept: PiiSpan[] = [];
  for (const s of spans) {
    let free = true;
    for (let i = s.start; i < s.end && free; i++) free = taken[i] === 0;
    if (!free) continue;
    taken.fill(1, s.start, s.end);
    kept.push(s);
  }
  return kept.sort((a, b) => a.start - b.start);
}
