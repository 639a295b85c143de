/**
 * Training data for the pii tagger, read from ../shared/datasets/pii (never copied into the repo),
 * each source turned into `{ text, spans }` with character offsets.
 */
import { readFileSync } from "node:fs";
import type { TaggedEntity } from "../../src/guardrails/pii/tagger/tags.js";

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
  const rows = JSON.parse(readFileSync(path, "utf8")) as PresidioRow[];
  return rows.slice(Math.floor(rows.length * from), Math.floor(rows.length * to)).map((row) => ({
    text: row.full_text,
    spans: row.spans.map((s) => ({ start: s.start_position, end: s.end_position, label: s.entity_type })),
  }));
}

const WNUT_MAP: Readonly<Record<string, TaggedEntity>> = {
  person: "PERSON",
  location: "LOCATION",
  corporation: "ORGANIZATION",
  group: "ORGANIZATION",
};

/** WNUT-17 CoNLL, tokens joined by single spaces (as training/pii/eval.ts scores it). */
export function loadWnut(path: string): LabelledText[] {
  const out: LabelledText[] = [];
  for (const block of readFileSync(path, "utf8").split(/\n\s*\n/)) {
    let text = "";
    const spans: { start: number; end: number; label: string }[] = [];
    let inside = false;
    for (const line of block.split("\n")) {
      const [token, tag = "O"] = line.split("\t");
      if (!token) continue;
      if (text) text += " ";
      const start = text.length;
      text += token;
      const label = WNUT_MAP[tag.slice(2)];
      const last = spans[spans.length - 1];
      if (tag.startsWith("I-") && inside && last && last.label === label) last.end = text.length;
      else if (label) spans.push({ start, end: text.length, label });
      inside = label !== undefined;
    }
    if (text) out.push({ text, spans });
  }
  return out;
}

const NANNI_MAP: Readonly<Record<string, TaggedEntity>> = {
  PERSON: "PERSON",
  ORGANIZATION: "ORGANIZATION",
  ORG: "ORGANIZATION",
};
const TITLE = /^(?:Dr|Mr|Mrs|Ms|Prof)\.? /;

/** nannigalaxy synthetic sentences: entity strings located in the text; titles are not part of a name. */
export function loadNannigalaxy(path: string): LabelledText[] {
  const rows = JSON.parse(readFileSync(path, "utf8")) as {
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
