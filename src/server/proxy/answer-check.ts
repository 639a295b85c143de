import { GuardrailBlockedError } from "../../api/errors.js";
import type { OutputCheckResponse } from "../../api/types.js";
import type { CompiledProfile } from "../../engine/compile.js";
import type { Engine, GuardrailFailure } from "../../engine/engine.js";
import type { GuardrailId } from "../../guardrails/types.js";
import {
  GUARD_STREAM_DEFAULTS,
  type GuardStreamOptions,
  guardStream,
  type StreamMode,
} from "../../stream/guard-stream.js";

/** What output-check knows of an answer: the request's last user turn and its system prompt. */
export interface AnswerContext {
  readonly prompt?: string;
  readonly systemPrompt?: string;
}

/**
 * output-check for one answer, in the stream guard's shape (src/stream/guard-stream.ts), remembering
 * which guardrails flagged and which failed. Each check stays within the server's character limit
 * with its context, as the library's guard does.
 */
export function answerCheck(
  engine: Engine,
  profile: CompiledProfile,
  { prompt, systemPrompt }: AnswerContext,
  signal: AbortSignal,
  maxChars: number,
  mode: StreamMode = "sentence",
) {
  let flaggedBy: readonly GuardrailId[] = [];
  const failures: GuardrailFailure[] = [];
  const check = async (message: string, options: { context?: string; signal?: AbortSignal }) => {
    const outcome = await engine.check("output", message, profile, prompt, {
      signal: options.signal ? AbortSignal.any([signal, options.signal]) : signal,
      ...(options.context === undefined ? {} : { context: options.context }),
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
    });
    if (outcome.body.injection_detected) flaggedBy = outcome.flaggedBy;
    failures.push(...outcome.failures);
    return outcome.body as unknown as OutputCheckResponse;
  };
  const streamOptions: GuardStreamOptions = {
    mode,
    ...(prompt === undefined ? {} : { prompt }),
    maxCheckChars: maxChars,
    tailChars: Math.min(GUARD_STREAM_DEFAULTS.tailChars, maxChars >> 1),
  };
  return {
    check,
    streamOptions,
    flaggedBy: () => flaggedBy,
    failures: () => failures,
    /** The one-shot verdict of a whole answer (in consecutive pieces past the limit); true when flagged. */
    async flags(text: string): Promise<boolean> {
      if (text.length <= maxChars) return (await check(text, {})).injection_detected;
      try {
        for await (const _ of guardStream(check, [text], streamOptions));
        return false;
      } catch (error) {
        if (error instanceof GuardrailBlockedError) return true;
        throw error;
      }
    },
  };
}

export type AnswerCheck = ReturnType<typeof answerCheck>;
