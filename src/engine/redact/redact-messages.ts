import { DEFAULT_CONVERSATION } from "../../config/conversation.js";
import type { Span } from "../../guardrails/types.js";
import { normalizeText } from "../../text/normalize.js";
import type { ActiveGuardrail, CompiledProfile } from "../compile.js";
import type { ChatMessage } from "../conversation/messages.js";
import { scanPlan } from "../conversation/scan-plan.js";
import { messageTexts } from "../conversation/texts.js";
import type { Originals } from "./placeholders.js";

/** A request's messages with personal data replaced, and what each placeholder stands for. */
export interface Redaction {
  /** The request's messages as JSON values, each redacted text replaced in a copy. */
  readonly messages: unknown[];
  readonly originals: Originals;
  /** Entities replaced, by type: for metrics and logs (never the values). */
  readonly counts: Readonly<Record<string, number>>;
}

/** The profile's pii guardrail when its `action` is `redact` and it reads prompts. */
export function redactingPii(compiled: CompiledProfile): ActiveGuardrail | undefined {
  const pii = compiled.active.find((g) => g.id === "pii");
  const redacts = compiled.profile.guardrails.pii.action === "redact";
  return pii && redacts && pii.appliesTo("input") ? pii : undefined;
}

/** Placeholders numbered per entity type, the same one for the same value throughout a request. */
function placeholderBook() {
  const byValue = new Map<string, string>();
  const originals = new Map<string, string>();
  const perType = new Map<string, number>();
  const counts: Record<string, number> = {};
  const name = (label: string, clean: string, original: string) => {
    const key = `${label}\u0000${clean}`;
    let placeholder = byValue.get(key);
    if (!placeholder) {
      const n = (perType.get(label) ?? 0) + 1;
      perType.set(label, n);
      placeholder = `<${label}_${n}>`;
      byValue.set(key, placeholder);
      originals.set(placeholder, original);
    }
    counts[label] = (counts[label] ?? 0) + 1;
    return placeholder;
  };
  return { name, originals, counts };
}

type Book = ReturnType<typeof placeholderBook>;

const WHITESPACE = /[\s\p{Zs}\u2028\u2029]+/gu;
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Where a span found in the normalised text lies in the text as sent, at or after `from`: the same
 * characters, or the same words with any run of whitespace between them (normalising collapses it).
 */
function locate(raw: string, value: string, from: number): [number, number] | undefined {
  const at = raw.indexOf(value, from);
  if (at >= 0) return [at, at + value.length];
  const words = value.split(" ").map(escapeRegex).join(WHITESPACE.source);
  const found = new RegExp(words, "gu");
  found.lastIndex = from;
  const match = found.exec(raw);
  return match ? [match.index, match.index + match[0].length] : undefined;
}

/** `text` with `spans` (offsets into `base`) replaced by their placeholders. */
function replaceSpans(base: string, spans: readonly [number, number, string, string][], book: Book) {
  let out = "";
  let at = 0;
  for (const [start, end, label, clean] of spans) {
    out += base.slice(at, start) + book.name(label, clean, base.slice(start, end));
    at = end;
  }
  return out + base.slice(at);
}

async function redactText(pii: ActiveGuardrail, text: string, book: Book): Promise<string> {
  const normalized = normalizeText(text);
  const finding = await pii.detector.check({ mode: "input", text: normalized });
  const spans: readonly Span[] = finding.spans ?? [];
  if (spans.length === 0) return text;
  const { clean } = normalized;
  const located: [number, number, string, string][] = [];
  for (const span of spans) {
    const value = clean.slice(span.start, span.end);
    const where = locate(text, value, located.at(-1)?.[1] ?? 0);
    if (!where) {
      // Not found as sent (NFKC changed it): the normalised text goes instead, redacted. What
      // cannot be placed must never reach the upstream as it was.
      return replaceSpans(
        clean,
        spans.map((s) => [s.start, s.end, s.label, clean.slice(s.start, s.end)]),
        book,
      );
    }
    located.push([where[0], where[1], span.label, value]);
  }
  return replaceSpans(text, located, book);
}

type Json = Record<string, unknown>;

/**
 * Replaces the personal data the profile's pii guardrail finds in the texts it scans (its
 * `conversation:` settings decide which; docs/conversations.md) with placeholders. `raw` are the
 * request's messages as sent, `parsed` the same validated: the copies keep every field as sent.
 * Over 100 entities in one text, the rest stay and the check that follows flags them.
 */
export async function redactMessages(
  raw: readonly unknown[],
  parsed: readonly ChatMessage[],
  compiled: CompiledProfile,
  pii: ActiveGuardrail,
): Promise<Redaction> {
  const settings = compiled.profile.conversation ?? DEFAULT_CONVERSATION;
  const enabled = compiled.active.filter((g) => g.appliesTo("input")).map((g) => g.id);
  const parts = scanPlan(parsed.map(messageTexts), settings, enabled).filter((p) => p.guardrails.has("pii"));
  const book = placeholderBook();
  const messages = raw.map((m) => structuredClone(m)) as Json[];
  for (const { index, source } of parts) {
    const message = messages[index] as Json;
    if (source === "tool_arguments") {
      for (const call of message.tool_calls as { function: Json }[])
        call.function.arguments = await redactText(pii, call.function.arguments as string, book);
    } else if (typeof message.content === "string") {
      message.content = await redactText(pii, message.content, book);
    } else if (Array.isArray(message.content)) {
      for (const part of message.content as Json[])
        if (part.type === "text") part.text = await redactText(pii, part.text as string, book);
    }
  }
  return { messages, originals: book.originals, counts: book.counts };
}
