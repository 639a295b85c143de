import { checkOrder } from "../guardrails/lists.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import type { CheckMode, GuardrailId, Span } from "../guardrails/types.js";
import type { Encoder } from "../models/encoder.js";
import { type NormalizedText, normalizeText } from "../text/normalize.js";
import type { CompiledProfile } from "./compile.js";
import { completedByMessage, contextBoundary } from "./context.js";
import { checkMessages } from "./conversation/check-messages.js";
import type { MessageResult } from "./conversation/message-results.js";
import type { ChatMessage } from "./conversation/messages.js";
import { lazyEmbedding, requestEmbeddings } from "./embedding.js";
import { outcome, verdicts } from "./outcome.js";
import { runOne } from "./run-one.js";
import { sharedVectors } from "./shared-vectors.js";

/** Exactly the spec's response body for input-check and output-check (docs/service-spec.md, "Endpoints"). */
export interface CheckResponse {
  injection_detected: boolean;
  execution_time: number;
  checks: Record<string, Record<string, unknown>>;
}

/** input-check's body for a `messages` array: the spec's, and each message's verdict (docs/conversations.md). */
export interface ConversationResponse extends CheckResponse {
  messages: MessageResult[];
}

export interface ConversationOutcome extends CheckOutcome {
  readonly body: ConversationResponse;
}

export interface GuardrailFailure {
  readonly guardrail: GuardrailId;
  readonly error: Error;
}

export interface CheckOutcome {
  readonly body: CheckResponse;
  /** Guardrails that threw: their verdict followed the profile's `on_error` policy. */
  readonly failures: readonly GuardrailFailure[];
  /** The guardrails that flagged, for views and logs: the body does not say it for score-only ones. */
  readonly flaggedBy: readonly GuardrailId[];
  /**
   * Milliseconds each guardrail took, from its call until its finding (or failure) was ready (see
   * runOne). Guardrails run concurrently and share the text's embeddings, so a model-backed
   * guardrail's time includes its wait for the encoder: what it adds to the request, not its CPU alone.
   */
  readonly timings: Partial<Record<GuardrailId, number>>;
  /**
   * The character spans (in the normalised `clean` text) each guardrail that reports them found,
   * for views that highlight them (the dashboard's Try it). The body never carries them.
   */
  readonly spans?: Partial<Record<GuardrailId, readonly Span[]>>;
  /**
   * For views, what the body leaves out: each guardrail's threshold (the spec's `vector` entry
   * carries a score alone) and its finding's note (why a fallback's threshold applied).
   */
  readonly details?: Partial<Record<GuardrailId, { readonly threshold?: number; readonly note?: string }>>;
}

export interface CheckOptions {
  /** Aborted when the caller has gone: the encoder work still queued for this request is dropped. */
  readonly signal?: AbortSignal;
  /**
   * The text of the same response that came before `message` (a streamed response checked chunk
   * by chunk). `context + message` is checked as one text; guardrails that report spans report
   * only what `message` completes (see context.ts), and the sentence encoder reads only sentences
   * that have ended (settledWindows in embedding.ts). Empty or absent: `message` alone, as ever.
   */
  readonly context?: string;
  /**
   * output-check: the app's system prompt as the request's `messages` give it (their system and
   * developer messages). system_prompt_protection reads it when its profile configures none.
   */
  readonly systemPrompt?: string;
}

export interface Engine {
  check(
    mode: CheckMode,
    message: string,
    profile: CompiledProfile,
    prompt?: string,
    options?: CheckOptions,
  ): Promise<CheckOutcome>;
  /** input-check of a conversation (`messages` instead of `message`): see conversation/check-messages.ts. */
  checkMessages(
    messages: readonly ChatMessage[],
    profile: CompiledProfile,
    options?: CheckOptions,
  ): Promise<ConversationOutcome>;
  inputCheck(message: string, profile: CompiledProfile): Promise<CheckResponse>;
  outputCheck(message: string, prompt: string | undefined, profile: CompiledProfile): Promise<CheckResponse>;
}

export interface EngineDeps {
  readonly registry: GuardrailRegistry;
  /** The sentence encoder shared by model-backed guardrails; without it they cannot run. */
  readonly encoder?: Encoder;
  /** Monotonic clock in milliseconds; injectable for tests. */
  readonly now?: () => number;
}

/**
 * An engine that can also judge one text by several profiles at once (`batch --compare`): the text
 * and prompt are normalised once, and each window is embedded once however many profiles read it.
 * Each outcome is the one `check` gives for that profile alone.
 */
export interface MultiProfileEngine extends Engine {
  checkEach(
    mode: CheckMode,
    message: string,
    profiles: readonly CompiledProfile[],
    prompt?: string,
    options?: CheckOptions,
  ): Promise<CheckOutcome[]>;
}

export function createEngine({
  registry,
  encoder,
  now = () => performance.now(),
}: EngineDeps): MultiProfileEngine {
  const order = { input: checkOrder(registry, "input"), output: checkOrder(registry, "output") };

  /** What every profile's check of one text shares: the normalised texts and the stream boundary. */
  function prepare(message: string, prompt: string | undefined, options: CheckOptions) {
    const context = options.context || undefined;
    const text = normalizeText(context === undefined ? message : context + message);
    // Computed once, and only when something needs it: the context alone, normalised.
    let contextText: NormalizedText | undefined;
    const contextAlone = () => (contextText ??= normalizeText(context ?? ""));
    const boundary = context === undefined ? undefined : contextBoundary(contextAlone().clean, text.clean);
    const promptText = prompt === undefined ? undefined : normalizeText(prompt);
    const systemPrompt = options.systemPrompt;
    return { context, text, contextAlone, boundary, promptText, systemPrompt, signal: options.signal };
  }

  async function judge(
    mode: CheckMode,
    compiled: CompiledProfile,
    shared: ReturnType<typeof prepare>,
    embedder: Encoder | undefined,
    started: number,
  ): Promise<CheckOutcome> {
    const { context, text, contextAlone, boundary, promptText, systemPrompt } = shared;
    const applicable = compiled.active.filter((g) => g.appliesTo(mode));
    const signal = shared.signal ? { signal: shared.signal } : {};
    // Each profile's own triage picks the windows of an over-budget text, so its verdict is the one
    // it gets alone; windows two profiles both pick are embedded once (see sharedVectors).
    const triage = applicable.find((g) => g.detector.triage)?.detector;
    const textOptions = {
      ...signal,
      // A chunk of a stream: the sentence it ends in may go on in the next chunk (see settledWindows).
      ...(context === undefined ? {} : { streamChunk: true }),
      ...(triage ? { triage: (texts: readonly string[]) => triage.triage?.(texts) ?? [] } : {}),
    };
    const request = {
      mode,
      text,
      ...(promptText ? { prompt: promptText } : {}),
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      ...(embedder ? requestEmbeddings(embedder, text.clean, textOptions) : {}),
      // The prompt's windows past the budget are spread evenly: the triage judges the checked text.
      ...(embedder && promptText
        ? { promptEmbedding: lazyEmbedding(embedder, promptText.clean, signal) }
        : {}),
      ...(boundary === undefined ? {} : { spansFrom: boundary }),
    };
    const results = await Promise.all(
      applicable.map(async (g) => {
        const result = await runOne(g, request, now);
        if (boundary === undefined || !g.definition.reportsSpans || !("finding" in result)) return result;
        // Reading the context alone again is this guardrail's work too.
        let { ms } = result;
        const earlier = async (from: number) => {
          const again = await runOne(g, { mode, text: contextAlone(), spansFrom: from }, now);
          ms += again.ms;
          return "finding" in again ? again.finding : undefined;
        };
        const finding = await completedByMessage(result.finding, boundary, earlier);
        return { finding, ms };
      }),
    );

    const found = verdicts(applicable, results, compiled.profile.onError);
    return outcome(registry, order[mode], found, (now() - started) / 1000);
  }
  async function check(
    mode: CheckMode,
    message: string,
    compiled: CompiledProfile,
    prompt?: string,
    options: CheckOptions = {},
  ) {
    const started = now();
    return judge(mode, compiled, prepare(message, prompt, options), encoder, started);
  }
  async function checkEach(
    mode: CheckMode,
    message: string,
    profiles: readonly CompiledProfile[],
    prompt?: string,
    options: CheckOptions = {},
  ) {
    const started = now();
    const shared = prepare(message, prompt, options);
    const embedder = encoder && profiles.length > 1 ? sharedVectors(encoder) : encoder;
    return Promise.all(profiles.map((compiled) => judge(mode, compiled, shared, embedder, started)));
  }
  return {
    check,
    checkEach,
    checkMessages: (messages, compiled, options) =>
      checkMessages(
        { registry, now, order: order.input, ...(encoder ? { encoder } : {}) },
        messages,
        compiled,
        options,
      ),
    inputCheck: async (message, profile) => (await check("input", message, profile)).body,
    outputCheck: async (message, prompt, profile) => (await check("output", message, profile, prompt)).body,
  };
}
