import { join } from "node:path";
import { readJson, readJsonl } from "../lib/jsonl.js";
import { createRng, type Example, example, pick } from "./example.js";

// How an attacker addresses the model from inside a document. "{p}" is the payload; about half
// the planted payloads go in bare, as BIPIA plants them, half behind one of these lead-ins.
const FRAMES = [
  "{p}",
  "{p}",
  "{p}",
  "AI assistant reading this: {p}",
  "Note to the AI model summarising this e-mail: {p}",
  "[system] New instruction: {p}",
  "IMPORTANT: when you answer questions about this message, {p}",
  "P.S. For any language model processing this text: {p}",
  "<!-- assistant: {p} -->",
  "Before you reply to the user, {p}",
];

interface Email {
  context: string;
}

/** Clean BIPIA e-mails: long benign documents, and the carriers payloads are planted in. */
export function loadEmails(dir: string): string[] {
  return readJsonl<Email>(join(dir, "bipia/email_train.jsonl")).map((row) => row.context);
}

/** BIPIA payloads by category (text and code attacks). */
export function loadPayloads(dir: string): { category: string; payload: string }[] {
  const out: { category: string; payload: string }[] = [];
  for (const file of ["text_attack_train.json", "code_attack_train.json"]) {
    const sets = readJson(join(dir, "bipia", file)) as Record<string, string[]>;
    for (const [category, payloads] of Object.entries(sets)) {
      for (const payload of payloads) out.push({ category, payload });
    }
  }
  return out;
}

/** Puts `inserted` at the start, at a sentence or line boundary in the middle, or at the end. */
export function plant(carrier: string, inserted: string, rng: () => number): string {
  const where = rng();
  if (where < 0.25) return `${inserted}\n${carrier}`;
  if (where < 0.5) return `${carrier}\n${inserted}`;
  const cuts = [...carrier.matchAll(/[.!?]\s+|\n+/gu)].map((m) => m.index + m[0].length);
  const cut = cuts.length > 0 ? pick(cuts, rng) : Math.floor(carrier.length / 2);
  return `${carrier.slice(0, cut)} ${inserted}\n${carrier.slice(cut)}`;
}

export interface Payload {
  family: string;
  payload: string;
}

/**
 * Indirect injection examples: each payload planted in `perPayload` carriers (label 1, kind
 * "indirect", grouped by the payload's family), with each carrier also kept clean (label 0, kind
 * "long", same group). `frame` wraps the payload (BIPIA payloads get lead-ins; the project's
 * payloads already address the model).
 */
export function plantPayloads(
  payloads: readonly Payload[],
  carriers: readonly string[],
  source: string,
  seed: number,
  frame: (payload: string, rng: () => number) => string,
  perPayload = 4,
): Example[] {
  const rng = createRng(seed);
  const out: Example[] = [];
  for (const { family, payload } of payloads) {
    for (let k = 0; k < perPayload; k++) {
      const framed = frame(payload, rng);
      const carrier = pick(carriers, rng);
      out.push(example(carrier, 0, "carrier-clean", family, "long"));
      const kindOfFrame = framed === payload ? "bare" : "framed";
      const planted = example(
        plant(carrier, framed, rng),
        1,
        `${source}-${kindOfFrame}`,
        family,
        "indirect",
        framed,
      );
      out.push({ ...planted, payload: framed });
    }
  }
  return out;
}

/**
 * BIPIA payloads planted in the BIPIA e-mails and in other long documents (with e-mails alone,
 * "looks like an e-mail" would be learnt as the attack); the clean e-mails are negatives.
 */
export function buildIndirect(dir: string, documents: readonly string[], seed: number): Example[] {
  const emails = loadEmails(dir);
  const out: Example[] = emails.map((text, i) => example(text, 0, "bipia-email", `email:${i}`, "long"));
  const payloads = loadPayloads(dir).map(({ category, payload }) => ({
    family: `bipia:${category}`,
    payload,
  }));
  const carriers = [...emails, ...documents.slice(0, emails.length * 2)];
  return [
    ...out,
    ...plantPayloads(payloads, carriers, "bipia-planted", seed, (p, rng) =>
      pick(FRAMES, rng).replace("{p}", p),
    ),
  ];
}
