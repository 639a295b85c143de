/**
 * Training data for the pii tagger, read from ../shared/datasets/pii (never copied into the repo),
 * each source turned into `{ text, spans }` with character offsets.
 */
import { readFileSync } from "node:fs";
import type { TaggedEntity } from "../../src/guardrails/pii/tagger/tags.js";
import { readJson } from "../lib/jsonl.js";

export interface LabelledText {
  readonly text: string;
  readonly spans: readonly { start: number; end: number; label: string }[];
}

const TAGGED = new Set(["PERSON", "LOCATION", "ORGANIZATION", "ADDRESS"]);

interface PresidioRow {
  full_text: string;
  spans: { entity_type: string; start_position: number; end_position: number }[];
}

/** Presidio-research rows; `part` picks rows [from, to) as fractions of the file (dev = 0–0.4). */
export function loadPresidio(path: string, from = 0, to = 1): LabelledText[] {
  const rows = readJson(path) as PresidioRow[];
  return rows.slice(Math.floor(rows.length * from), Math.floor(rows.length * to)).map((row) => ({
    text: row.full_text,
    spans: row.spans.map((s) => ({ start: s.start_position, end: s.end_position, label: s.entity_type })),
  }));
}

export interface ConllToken {
  readonly start: number;
  readonly end: number;
  /** The BIO tag: "O", "B-person", "I-person", … */
  readonly tag: string;
}

/**
 * CoNLL (WNUT-17): one "token<TAB>BIO-tag" a line, a blank line between texts. Each text is its
 * tokens joined by single spaces, with every token's offsets and tag.
 */
export function readConll(path: string): { text: string; tokens: ConllToken[] }[] {
  const out: { text: string; tokens: ConllToken[] }[] = [];
  for (const block of readFileSync(path, "utf8").split(/\n\s*\n/)) {
    let text = "";
    const tokens: ConllToken[] = [];
    for (const line of block.split("\n")) {
      const [token, tag = "O"] = line.split("\t");
      if (!token) continue;
      if (text) text += " ";
      const start = text.length;
      text += token;
      tokens.push({ start, end: text.length, tag });
    }
    if (text) out.push({ text, tokens });
  }
  return out;
}

/**
 * Spans from BIO tags: a token whose type has a label starts a span, and an I- token extends the
 * last span when it has the same label (and, with `adjacent`, when the token before had a label).
 */
export function bioSpans(
  tokens: readonly ConllToken[],
  labelOf: (type: string, tag: string) => string | undefined,
  adjacent: boolean,
): { start: number; end: number; label: string }[] {
  const spans: { start: number; end: number; label: string }[] = [];
  let inside = false;
  for (const { start, end, tag } of tokens) {
    const label = labelOf(tag.slice(2), tag);
    const last = spans[spans.length - 1];
    if (tag.startsWith("I-") && (inside || !adjacent) && last && last.label === label) last.end = end;
    else if (label) spans.push({ start, end, label });
    inside = label !== undefined;
  }
  return spans;
}

const WNUT_MAP: Readonly<Record<string, TaggedEntity>> = {
  person: "PERSON",
  location: "LOCATION",
  corporation: "ORGANIZATION",
  group: "ORGANIZATION",
};

/** WNUT-17 CoNLL, the tagger's entity types only (as training/pii/eval.ts scores it). */
export function loadWnut(path: string): LabelledText[] {
  return readConll(path).map(({ text, tokens }) => ({
    text,
    spans: bioSpans(tokens, (type) => WNUT_MAP[type], true),
  }));
}

const NANNI_MAP: Readonly<Record<string, TaggedEntity>> = {
  PERSON: "PERSON",
  ORGANIZATION: "ORGANIZATION",
  ORG: "ORGANIZATION",
};
const TITLE = /^(?:Dr|Mr|Mrs|Ms|Prof)\.? /;

/** nannigalaxy synthetic sentences: entity strings located in the text; titles are not part of a name. */
export function loadNannigalaxy(path: string): LabelledText[] {
  const rows = readJson(path) as {
    text: string;
    NER: { entity: string; label: string }[];
  }[];
  return rows.map((row) => {
    const spans: { start: number; end: number; label: string }[] = [];
    for (const e of row.NER) {
      const label = NANNI_MAP[e.label];
      const at = row.text.indexOf(e.entity);
      if (!label || at < 0) continue;
      const skip = label === "PERSON" ? (TITLE.exec(e.entity)?.[0].length ?? 0) : 0;
      spans.push({ start: at + skip, end: at + e.entity.length, label });
    }
    return { text: row.text, spans };
  });
}

/** Keeps only the entity types the tagger learns. */
export function taggedOnly(texts: readonly LabelledText[]): LabelledText[] {
  return texts.map((t) => ({ text: t.text, spans: t.spans.filter((s) => TAGGED.has(s.label)) }));
}
