/**
 * What the pii leave-one-source-out evaluation trains on and scores: train:pii's sets without the
 * held-out source, and every labelled text of that source, scored on the entity types it labels
 * that the guardrail reports (names mapped as eval:pii maps them; other labels are not judged).
 */
import { join } from "node:path";
import { PII_ENTITIES, type PiiEntity } from "../../src/guardrails/pii/entities.js";
import { readJson } from "../lib/jsonl.js";
import { loadPresidio } from "./data.js";
import { loadWnutScored, PRESIDIO_MAP } from "./eval.js";
import type { PiiSource, TrainingSet } from "./fit.js";
import type { Sample } from "./span-tally.js";

export interface HeldOutSet {
  readonly source: PiiSource;
  /** The files scored. */
  readonly files: string;
  readonly samples: readonly Sample[];
  /** Types scored: labelled in the source and reported by the guardrail. */
  readonly scored: readonly PiiEntity[];
}

/** train:pii's sets with every set of `held` left out. */
export function losoSplit(sets: readonly TrainingSet[], held: PiiSource): TrainingSet[] {
  return sets.filter((s) => s.source !== held);
}

/** nannigalaxy's labels that name one of the guardrail's types; the rest are not judged. */
const NANNI_MAP: Readonly<Record<string, PiiEntity>> = {
  PERSON: "PERSON",
  ORGANIZATION: "ORGANIZATION",
  ORG: "ORGANIZATION",
  EMAIL: "EMAIL_ADDRESS",
  PHONE: "PHONE_NUMBER",
  SSN: "US_SSN",
  IBAN: "IBAN_CODE",
  CREDIT_CARD: "CREDIT_CARD",
  DRIVER_LICENSE: "US_DRIVER_LICENSE",
  DRIVERS_LICENSE: "US_DRIVER_LICENSE",
  DRIVER_LICENSE_NUM: "US_DRIVER_LICENSE",
};

/** nannigalaxy lists entity strings, not offsets: every occurrence of each in its text is a span. */
function nannigalaxy(path: string): Sample[] {
  const rows = readJson(path) as { text: string; NER: { entity: string; label: string }[] }[];
  return rows.map((row) => {
    const spans: { start: number; end: number; label: string }[] = [];
    for (const e of row.NER) {
      const label = NANNI_MAP[e.label] ?? `IGNORED_${e.label}`;
      for (let at = row.text.indexOf(e.entity); at >= 0 && e.entity; at = row.text.indexOf(e.entity, at + 1))
        spans.push({ start: at, end: at + e.entity.length, label });
    }
    return { text: row.text, spans };
  });
}

const reported = new Set<string>(PII_ENTITIES);
const scoredTypes = (samples: readonly Sample[]): PiiEntity[] => {
  const labels = new Set(samples.flatMap((s) => s.spans.map((g) => g.label)));
  return PII_ENTITIES.filter((e) => labels.has(e));
};

/** Each source's labelled texts: all of them, since a held-out source was never trained on. */
export function heldOutSets(data: string): HeldOutSet[] {
  const presidio = ["generated_large.json", "generated_small.json"].flatMap((f) =>
    loadPresidio(join(data, "presidio-research", f)).map((t) => ({
      text: t.text,
      spans: t.spans.map((s) => {
        const label = PRESIDIO_MAP[s.label] ?? s.label;
        return { ...s, label: reported.has(label) ? label : `IGNORED_${label}` };
      }),
    })),
  );
  const nanni = nannigalaxy(join(data, "nannigalaxy", "pii_syn_nano_en.json"));
  const wnut = ["wnut17train.conll", "emerging.dev.conll"].flatMap((f) =>
    loadWnutScored(join(data, "wnut17", f)),
  );
  return [
    {
      source: "presidio-research",
      files: "generated_large.json, generated_small.json",
      samples: presidio,
      scored: scoredTypes(presidio),
    },
    { source: "nannigalaxy", files: "pii_syn_nano_en.json", samples: nanni, scored: scoredTypes(nanni) },
    {
      source: "wnut17",
      files: "wnut17train.conll, emerging.dev.conll",
      samples: wnut,
      scored: scoredTypes(wnut),
    },
  ];
}
