import { DEFAULT_CONVERSATION } from "../../config/conversation.js";
import type { GuardrailRegistry } from "../../guardrails/registry.js";
import type { CheckRequest, Finding, GuardrailId } from "../../guardrails/types.js";
import type { Encoder } from "../../models/encoder.js";
import { normalizeText } from "../../text/normalize.js";
import type { ActiveGuardrail, CompiledProfile } from "../compile.js";
import { MAX_ENCODED_WINDOWS, MAX_PIECES, requestEmbeddings } from "../embedding.js";
import type { CheckOptions, ConversationOutcome, GuardrailFailure } from "../engine.js";
import { outcome, type Verdicts, verdicts } from "../outcome.js";
import { runOne } from "../run-one.js";
import { gatheredVectors } from "./gathered-vectors.js";
import { mergeFindings } from "./merge-findings.js";
import { messageResults } from "./message-results.js";
import type { ChatMessage } from "./messages.js";
import { type ScanPart, scanPlan } from "./scan-plan.js";
import { shares } from "./shares.js";
import { messageTexts } from "./texts.js";

export interface ConversationDeps {
  readonly registry: GuardrailRegistry;
  readonly encoder?: Encoder;
  readonly now: () => number;
  /** input-check's `checks` order. */
  readonly order: readonly GuardrailId[];
}

/** One text and the guardrails that read it; `part` is absent for the empty text (see below). */
interface Job {
  readonly part?: ScanPart;
  readonly guardrails: readonly ActiveGuardrail[];
}

/**
 * input-check of a conversation: each scanned text (see scanPlan) is judged by the guardrails that
 * read it, as one `message` would be, with the role it came from on the request (`CheckRequest.role`).
 * The texts' windows are embedded in one encoder call (gatheredVectors) and the per-request window
 * and piece budgets are shared between them (see shares.ts), so a conversation costs the encoder
 * about what one message of its text costs. Each guardrail's findings merge into its one `checks` entry (mergeFindings); `messages`
 * says which guardrails flagged which message.
 */
export async function checkMessages(
  deps: ConversationDeps,
  messages: readonly ChatMessage[],
  compiled: CompiledProfile,
  options: CheckOptions = {},
): Promise<ConversationOutcome> {
  const started = deps.now();
  const texts = messages.map(messageTexts);
  const applicable = compiled.active.filter((g) => g.appliesTo("input"));
  const settings = compiled.profile.conversation ?? DEFAULT_CONVERSATION;
  const parts = scanPlan(
    texts,
    settings,
    applicable.map((g) => g.id),
  );
  const jobs: Job[] = parts.map((part) => ({
    part,
    guardrails: applicable.filter((g) => part.guardrails.has(g.id)),
  }));
  // A guardrail no text asks for still answers, on the empty text, so its entry keeps its enabled shape.
  const unasked = applicable.filter((g) => !parts.some((p) => p.guardrails.has(g.id)));
  if (unasked.length > 0) jobs.push({ guardrails: unasked });

  const embedder = deps.encoder && gatheredVectors(deps.encoder);
  // The empty text of guardrails no text asks for is last: it gets no share.
  const lengths = parts.map((p) => p.text.length);
  const budgets = shares(lengths, MAX_ENCODED_WINDOWS);
  const pieceBudgets = shares(lengths, MAX_PIECES);
  const onError = compiled.profile.onError;
  const judged = await Promise.all(
    jobs.map(async ({ part, guardrails }, i) => {
      const text = normalizeText(part?.text ?? "");
      const triage = guardrails.find((g) => g.detector.triage)?.detector;
      const embeddingOptions = {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(triage ? { triage: (t: readonly string[]) => triage.triage?.(t) ?? [] } : {}),
        budget: budgets[i] ?? 0,
        maxPieces: pieceBudgets[i] ?? 0,
      };
      const request: CheckRequest = {
        mode: "input",
        text,
        ...(part ? { role: part.role, source: part.source } : {}),
        ...(embedder ? requestEmbeddings(embedder, text.clean, embeddingOptions) : {}),
      };
      const results = await Promise.all(guardrails.map((g) => runOne(g, request, deps.now)));
      return verdicts(guardrails, results, onError);
    }),
  );

  const merged = merge(applicable, judged);
  const result = outcome(deps.registry, deps.order, merged, (deps.now() - started) / 1000);
  const flaggedBy = parts.map((_, i) =>
    [...(judged[i]?.findings ?? [])].filter(([, f]) => f.flagged).map(([id]) => id),
  );
  return {
    ...result,
    body: { ...result.body, messages: messageResults(texts, parts, flaggedBy, deps.order) },
    // Spans point into one text each; a conversation has many.
    spans: {},
  };
}

/** Each guardrail's verdicts over every text it read, as one; a guardrail's time is its slowest text's. */
function merge(applicable: readonly ActiveGuardrail[], judged: readonly Verdicts[]): Verdicts {
  const findings = new Map<GuardrailId, Finding>();
  const failures: GuardrailFailure[] = [];
  const timings: Partial<Record<GuardrailId, number>> = {};
  for (const { id } of applicable) {
    const own = judged.filter((v) => v.findings.has(id));
    findings.set(id, mergeFindings(own.map((v) => v.findings.get(id) as Finding)));
    const failure = own.flatMap((v) => v.failures).find((f) => f.guardrail === id);
    if (failure) failures.push(failure);
    timings[id] = Math.max(0, ...own.map((v) => v.timings[id] ?? 0));
  }
  return { findings, failures, timings };
}
