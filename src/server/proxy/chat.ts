import type { Context } from "hono";
import { checkInputFields } from "../../engine/check-message-fields.js";
import type { CompiledProfile } from "../../engine/compile.js";
import type { ChatMessage } from "../../engine/conversation/messages.js";
import { outputContext } from "../../engine/conversation/output-context.js";
import { parseMessages } from "../../engine/conversation/parse.js";
import type { ConversationOutcome, Engine, GuardrailFailure } from "../../engine/engine.js";
import type { Originals } from "../../engine/redact/placeholders.js";
import { redactingPii, redactMessages } from "../../engine/redact/redact-messages.js";
import type { StreamMode } from "../../stream/guard-stream.js";
import { parseJsonObject, readLimitedBody, requireJsonContentType } from "../body.js";
import { refusableChunks } from "../body-refusal.js";
import { clientGoneError, clientGoneSignal } from "../client-abort.js";
import { type AppEnv, type Limits, type Logger, logRecord } from "../types.js";
import { answerCheck } from "./answer-check.js";
import { ProxyError } from "./errors.js";
import { guardJsonAnswer, isCompletion } from "./json-answer.js";
import type { ProxyMetrics } from "./metrics.js";
import { guardedStream } from "./stream-answer.js";
import { type Deadline, returnedHeaders, type UpstreamSettings } from "./upstream.js";
import { upstreamCall } from "./upstream-call.js";

export interface ChatDeps {
  readonly engine: Engine;
  readonly limits: Limits;
  readonly upstream: UpstreamSettings;
  readonly log: Logger;
  readonly metrics?: ProxyMetrics;
  readonly streamMode?: StreamMode;
}

async function readRequest(c: Context<AppEnv>, limits: Limits) {
  requireJsonContentType(c.req.header("content-type"));
  const { incoming } = c.env ?? {};
  const bytes = await readLimitedBody(
    {
      contentType: c.req.header("content-type"),
      contentLength: c.req.header("content-length"),
      // Stopping early (a 413) must not destroy the socket: the answer still has to reach the client.
      chunks: incoming ? refusableChunks(incoming) : c.req.raw.body,
    },
    limits.bodyBytes,
  );
  const body = parseJsonObject(bytes);
  if (body.messages === undefined || body.messages === null)
    throw new ProxyError(400, "messages is required: the conversation to complete", "invalid_request", {
      param: "messages",
    });
  const { messages } = checkInputFields({ messages: body.messages }, limits.messageChars) as {
    messages: ChatMessage[];
  };
  const stream = body.stream === true;
  if (stream && typeof body.n === "number" && body.n > 1)
    throw new ProxyError(
      400,
      "n above 1 is not supported with stream by the guardrail proxy",
      "unsupported_parameter",
      {
        param: "n",
      },
    );
  return { bytes, body, messages, stream };
}

function blockedError(outcome: ConversationOutcome): ProxyError {
  const flagged = outcome.body.messages.filter((m) => m.flagged_by.length > 0).map((m) => m.index);
  const where = flagged.length > 0 ? ` (messages ${flagged.join(", ")})` : "";
  return new ProxyError(
    400,
    `Blocked by guardrail: ${outcome.flaggedBy.join(", ")}${where}`,
    "guardrail_blocked",
    { param: "messages", guardrails: outcome.flaggedBy },
  );
}

function noteFailures(c: Context<AppEnv>, failures: readonly GuardrailFailure[]) {
  if (failures.length === 0) return;
  c.set("guardrailFailures", [...(c.get("guardrailFailures") ?? []), ...failures]);
  c.header("X-Guardrail-Errors", [...new Set(failures.map((f) => f.guardrail))].join(","));
}

/** Redacts (when the profile says so) and checks the request; what passed is what goes upstream. */
async function admit(deps: ChatDeps, c: Context<AppEnv>, profile: CompiledProfile, signal: AbortSignal) {
  const { bytes, body, messages, stream } = await readRequest(c, deps.limits);
  const pii = redactingPii(profile);
  const redaction = pii
    ? await redactMessages(body.messages as unknown[], messages, profile, pii)
    : undefined;
  const redacted = redaction && redaction.originals.size > 0 ? redaction : undefined;
  // The check reads what the upstream will read: the placeholders, not the data they replace.
  const sent = redacted ? parseMessages(redacted.messages) : messages;
  const outcome = await deps.engine.checkMessages(sent, profile, { signal });
  if (signal.aborted) throw clientGoneError();
  noteFailures(c, outcome.failures);
  const name = profile.profile.name;
  if (outcome.body.injection_detected) {
    deps.metrics?.blocked("request", outcome.flaggedBy, name);
    c.set("logFields", { blocked: "request", flagged_by: outcome.flaggedBy });
    throw blockedError(outcome);
  }
  if (redacted) {
    deps.metrics?.redacted(redacted.counts, name);
    c.set("logFields", { redacted: redacted.counts });
  }
  const originals: Originals = redacted?.originals ?? new Map();
  const forward = redacted ? JSON.stringify({ ...body, messages: redacted.messages }) : bytes;
  return { body, sent, stream, originals, forward };
}

/** POST /v1/chat/completions: see docs/proxy.md for what happens to a request and its answer. */
export function chatCompletions(deps: ChatDeps) {
  return async (c: Context<AppEnv>) => {
    const resolved = c.get("resolved");
    if (!resolved) throw new Error("chat route reached without authentication");
    const { profile } = resolved;
    const signal = clientGoneSignal(c.env?.outgoing, c.req.raw);
    const { body, sent, stream, originals, forward } = await admit(deps, c, profile, signal);
    const call = await upstreamCall(deps, c, "/chat/completions", { method: "POST", body: forward }, signal);
    const { response } = call;
    const headers = returnedHeaders(response.headers);
    if (!response.ok) {
      call.timer.stop();
      return new Response(response.body, { status: response.status, headers });
    }
    const verdicts = answerCheck(
      deps.engine,
      profile,
      outputContext(sent),
      signal,
      deps.limits.messageChars,
      deps.streamMode,
    );
    const requestId = c.get("requestId");
    const eventStream = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
    if (stream && eventStream && response.body) {
      const answer = guardedStream({
        body: response.body,
        verdicts,
        originals,
        timer: call.timer,
        stopUpstream: call.stop,
        model: body.model,
        onEnd: (end) => {
          if (end.kind === "blocked") deps.metrics?.blocked("stream", end.guardrails, profile.profile.name);
          deps.log(logRecord("info", "stream ended", { request_id: requestId, ...end }));
        },
      });
      return new Response(answer, { status: response.status, headers });
    }
    const bytes = await readAll(response, call.timer, signal);
    let completion: unknown;
    try {
      completion = JSON.parse(new TextDecoder().decode(bytes));
    } catch {}
    if (!isCompletion(completion))
      throw new ProxyError(502, "the upstream's answer is not a chat completion", "upstream_invalid_answer");
    const verdict = await guardJsonAnswer(completion, verdicts, originals);
    if (signal.aborted) throw clientGoneError();
    noteFailures(c, verdicts.failures());
    if (verdict.blocked.length > 0) {
      deps.metrics?.blocked("response", verdict.blocked, profile.profile.name);
      c.set("logFields", { ...c.get("logFields"), blocked: "response", flagged_by: verdict.blocked });
      headers.set("X-Guardrail-Blocked", verdict.blocked.join(","));
    }
    const out = verdict.body ? JSON.stringify(verdict.body) : bytes;
    return new Response(out, { status: response.status, headers });
  };
}

/** The whole answer, within the upstream's deadline. */
async function readAll(response: Response, timer: Deadline, signal: AbortSignal): Promise<Uint8Array> {
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch {
    if (signal.aborted) throw clientGoneError();
    if (timer.signal.aborted) throw timer.signal.reason;
    throw new ProxyError(502, "the upstream's answer broke off", "upstream_stream_error", {});
  } finally {
    timer.stop();
  }
}
