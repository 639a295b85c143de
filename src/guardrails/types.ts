import type { z } from "zod";
import type { Role } from "../engine/conversation/messages.js";
import type { PartSource } from "../engine/conversation/scan-plan.js";
import type { EmbeddedText } from "../engine/embedding.js";
import type { Encoder } from "../models/encoder.js";
import type { NormalizedText } from "../text/normalize.js";

/**
 * The guardrail ids, in the order profiles and the batch summary list them: input-only guardrails,
 * then those of both endpoints, then output-only ones. The compiler keeps this and the registry's
 * keys the same set; the response's `checks` order is the registry's (see registry.ts).
 */
export const GUARDRAIL_IDS = [
  "llm",
  "vector",
  "keyword",
  "regex",
  "pii",
  "content_moderation",
  "system_prompt_protection",
] as const;
export type GuardrailId = (typeof GUARDRAIL_IDS)[number];

export type CheckMode = "input" | "output";

/** What one request hands every detector: the text normalised once, and the mode. */
export interface CheckRequest {
  readonly mode: CheckMode;
  readonly text: NormalizedText;
  /**
   * input-check of a `messages` array: the role of the message `text` came from, and whether it is
   * its content or its tool calls' arguments. A tool result is data an attacker may have written,
   * not a request: a detector may judge it as such. Absent for a single `message`.
   */
  readonly role?: Role;
  readonly source?: PartSource;
  /**
   * output-check only: the app's system prompt from the request's `messages`, for a profile
   * that configures none (see system_prompt_protection).
   */
  readonly systemPrompt?: string;
  /** output-check only: the originating prompt, when the caller sent it. */
  readonly prompt?: NormalizedText;
  /**
   * Sentence windows of `text.clean` and their vectors, computed once per request on first call
   * and shared by every guardrail. Absent when the engine has no encoder. For a chunk of a stream
   * (output-check with `context`) only the windows of sentences that have ended (settledWindows).
   */
  readonly embedding?: () => Promise<EmbeddedText>;
  /**
   * A chunk of a stream only: every window, the unfinished last sentence's too, as a one-shot check
   * embeds them. Worth its encoder run only to confirm a flag the settled windows raise.
   */
  readonly wholeEmbedding?: () => Promise<EmbeddedText>;
  /**
   * Sentence pieces (≤32 tokens) of a `text.clean` longer than one window, and their vectors, for
   * guardrails that look for one sentence inside a long text; no pieces for a one-window text.
   * Computed once per request on first call, like `embedding`.
   */
  readonly pieces?: () => Promise<EmbeddedText>;
  /** The same as `embedding` for `prompt`, when there is one. */
  readonly promptEmbedding?: () => Promise<EmbeddedText>;
  /**
   * Set when only spans ending after this offset of `text.clean` are wanted (output-check with a
   * `context`: the engine drops the others). A detector that caps its spans leaves the others out,
   * so that they do not use up the cap; `matched` and `entities` still list everything found.
   */
  readonly spansFrom?: number;
}

/** A character range in `text.clean`, with what was found there. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly label: string;
}

/** Findings are data, never exceptions. */
export interface Finding {
  readonly flagged: boolean;
  readonly score?: number;
  readonly threshold?: number;
  readonly matched?: readonly string[];
  readonly entities?: readonly string[];
  readonly category?: string;
  /** A guardrail's separate signals behind `score`, each a score of its own (content_moderation's two). */
  readonly signals?: Readonly<Record<string, number>>;
  readonly spans?: readonly Span[];
  /**
   * True when a cap or time limit left some match without a span: which items of `matched` or
   * `entities` the spans cover cannot then be told, and the engine reports the finding as it is.
   */
  readonly spansCut?: boolean;
  /**
   * Why the finding is as it is, for a person reading it (the terminal view): a fallback taken,
   * whose threshold applied. Never part of the response body.
   */
  readonly note?: string;
}

export interface Detector {
  check(request: CheckRequest): Finding | Promise<Finding>;
  /**
   * What an operator should hear about how the detector was built (a stale index rebuilt in
   * memory, say). Guardrails never print: the CLI and the server report these.
   */
  readonly notes?: readonly string[];
  /**
   * Scores sentence windows cheaply (higher: more suspicious), for a text with more windows than
   * the encoder embeds per request: the engine embeds the best-scored ones (see
   * src/engine/embedding.ts). The first applicable guardrail that offers one is asked.
   */
  triage?(texts: readonly string[]): ArrayLike<number>;
}

/** What a guardrail may need from its surroundings when it is built. */
export interface GuardrailContext {
  /** Directory that relative file paths in the profile are resolved against. */
  readonly baseDir: string;
  /** The shared sentence encoder, for work done once at build time (indexes, reference texts). */
  readonly encoder?: Encoder;
}

/**
 * One guardrail: an id, where it applies, a zod schema for its profile settings (always with
 * `enabled`), a factory, and how its entry in the response's `checks` object looks.
 * `render(undefined)` is the disabled shape the spec (docs/service-spec.md) requires. Each definition is written
 * `{ … } satisfies GuardrailDefinition<Settings>`, so its own type keeps what `create` returns:
 * rule-based guardrails build synchronously, model-backed ones may await weights.
 */
export interface GuardrailDefinition<S extends { enabled: boolean }> {
  readonly id: GuardrailId;
  readonly appliesTo: readonly CheckMode[];
  readonly settings: z.ZodType<S>;
  /** True for guardrails that read sentence embeddings: their profiles need the encoder loaded. */
  readonly usesEncoder?: boolean;
  /** True when findings carry a graded score, not a 0/1 verdict: batch draws curves and sweeps for it. */
  readonly scored?: boolean;
  /**
   * True when every item of `matched` or `entities` is backed by spans labelled with it (unless
   * `spansCut`), so the engine can tell what a streamed chunk completes (see src/engine/context.ts).
   */
  readonly reportsSpans?: boolean;
  /** May be async: model-backed guardrails load weights or build indexes here, once. */
  create(settings: S, context: GuardrailContext): Detector | Promise<Detector>;
  render(finding: Finding | undefined): Record<string, unknown>;
}

/** Erases the settings type so definitions can sit in one map. */
// biome-ignore lint/suspicious/noExplicitAny: settings are validated by each definition's own schema
export type AnyGuardrailDefinition = GuardrailDefinition<any>;
