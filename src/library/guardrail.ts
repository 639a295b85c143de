import { availableParallelism } from "node:os";
import type {
  InputCheckInput,
  InputCheckResponse,
  OutputCheckOptions,
  OutputCheckResponse,
} from "../api/types.js";
import { checkInputFields, checkOutputFields } from "../engine/check-message-fields.js";
import { type CompiledProfile, compileNotes, compileProfile, needsEncoder } from "../engine/compile.js";
import { createEngine } from "../engine/engine.js";
import { ConfigError, UsageError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import type { Encoder } from "../models/encoder.js";
import { type Precision, parsePrecision } from "../models/use-lite/precision.js";
import { withVectorCache } from "../models/vector-cache.js";
import { GUARD_STREAM_DEFAULTS, type GuardStreamOptions, guardStream } from "../stream/guard-stream.js";
import type { StreamSource } from "../stream/source.js";
import { DEFAULT_MESSAGE_CHARS } from "../text/length.js";
import { type ProfileSource, selectProfile } from "./select-profile.js";

export interface GuardrailOptions extends ProfileSource {
  /** Longest message, prompt or context, in Unicode code points (default: the server's 100,000). */
  readonly maxMessageChars?: number;
  /** Threads running the sentence encoder (default min(2, cores)); 0 runs it on the calling thread. */
  readonly encoderWorkers?: number;
  /** The sentence encoder's precision: "int8" (default) or "fp32" (the reference; docs/performance.md). */
  readonly encoderPrecision?: Precision;
}

/**
 * The stream guard's options. Each check stays within the guardrail's `maxMessageChars`: the
 * context tail is cut to at most half of it.
 */
export type GuardrailStreamOptions = Omit<GuardStreamOptions, "maxCheckChars">;

/** A compiled profile and the engine to run it, in this process. */
export interface Guardrail {
  /** The name of the profile in use. */
  readonly profile: string;
  /** What compiling the profile noticed (a guardrail falling back, say), one line each. */
  readonly notes: readonly string[];
  /** The response body of POST input-check, for one prompt or a conversation (`{ messages }`). */
  inputCheck(input: InputCheckInput): Promise<InputCheckResponse>;
  /** The response body of POST output-check; `context` as for a streamed response's chunk. */
  outputCheck(message: string, options?: OutputCheckOptions): Promise<OutputCheckResponse>;
  /**
   * A streamed model response, yielded as output-check passes it (the client's guardStream, in
   * process); a flag stops the source and throws GuardrailBlockedError.
   */
  guardStream(
    source: StreamSource,
    options?: GuardrailStreamOptions,
  ): AsyncGenerator<string, void, undefined>;
  /** Stops the encoder's worker threads; later checks throw. Safe to call twice. */
  close(): Promise<void>;
}

export interface GuardrailDeps {
  readonly registry: GuardrailRegistry;
  /** A sentence encoder the caller owns (tests): used as is and not closed by close(). */
  readonly encoder?: Encoder;
  /** What relative `profile` and `config` paths are resolved against (default process.cwd()). */
  readonly cwd?: string;
}

/** USE-lite, on worker threads unless `workers` is 0; imported only for profiles that embed. */
async function defaultEncoder(workers: number, precision: Precision): Promise<Encoder> {
  if (workers === 0)
    return (await import("../models/use-lite/encoder.js")).createUseLiteEncoder({ precision });
  return (await import("../models/use-lite/encoder-pool.js")).createPooledEncoder({ workers, precision });
}

async function compile(source: GuardrailOptions, deps: GuardrailDeps, workers: number) {
  const precision = parsePrecision(source.encoderPrecision, "encoderPrecision");
  const selected = await selectProfile(source, deps.registry, deps.cwd);
  const wanted = needsEncoder(selected, deps.registry);
  const owned = wanted && !deps.encoder ? await defaultEncoder(workers, precision) : undefined;
  const encoder = wanted ? (deps.encoder ?? owned) : undefined;
  let compiled: CompiledProfile;
  try {
    // Loaded now, so a missing model fails here and the first check does not pay for the load.
    await encoder?.load();
    try {
      compiled = await compileProfile(selected, deps.registry, encoder);
    } catch (error) {
      throw new ConfigError(`${selected.file}: ${(error as Error).message}`);
    }
  } catch (error) {
    await owned?.close();
    throw error;
  }
  return { compiled, encoder, owned };
}

/** The composition behind `createGuardrail`: the profile selected and compiled, the engine over it. */
export async function openGuardrail(options: GuardrailOptions, deps: GuardrailDeps): Promise<Guardrail> {
  const maxChars = options.maxMessageChars ?? DEFAULT_MESSAGE_CHARS;
  const workers = options.encoderWorkers ?? Math.min(2, availableParallelism());
  const { compiled, encoder, owned } = await compile(options, deps, workers);
  // As in the server: a streamed response's chunks share their context's windows, embedded once.
  const engine = createEngine({
    registry: deps.registry,
    ...(encoder ? { encoder: withVectorCache(encoder) } : {}),
  });
  let closing: Promise<void> | undefined;
  const open = () => {
    if (closing) throw new UsageError("this guardrail is closed: create another with createGuardrail()");
  };
  const outputCheck = async (
    message: string,
    { prompt, context, messages, signal }: OutputCheckOptions & { signal?: AbortSignal } = {},
  ) => {
    open();
    const fields = checkOutputFields({ message, prompt, context, messages }, maxChars);
    const options = {
      ...(fields.context === undefined ? {} : { context: fields.context }),
      ...(fields.systemPrompt === undefined ? {} : { systemPrompt: fields.systemPrompt }),
      ...(signal ? { signal } : {}),
    };
    // The engine renders each guardrail's shape; src/api/types.ts is held to it by test/api.
    return (await engine.check("output", fields.message, compiled, fields.prompt, options))
      .body as unknown as OutputCheckResponse;
  };
  return {
    profile: compiled.profile.name,
    notes: compileNotes(compiled),
    inputCheck: async (input) => {
      open();
      // The server's own field checks, so the library refuses what the server refuses, in its words.
      const raw =
        typeof input === "object" && input !== null ? { messages: input.messages } : { message: input };
      const fields = checkInputFields(raw, maxChars);
      const outcome =
        "messages" in fields
          ? await engine.checkMessages(fields.messages, compiled)
          : await engine.check("input", fields.message, compiled);
      return outcome.body as unknown as InputCheckResponse;
    },
    outputCheck: (message, checkOptions) => outputCheck(message, checkOptions),
    guardStream: (source, streamOptions = {}) => {
      open();
      // A chunk's check carries its context: a tail of at most half the limit leaves room for the chunk.
      const tailChars = Math.min(streamOptions.tailChars ?? GUARD_STREAM_DEFAULTS.tailChars, maxChars >> 1);
      return guardStream(outputCheck, source, { ...streamOptions, tailChars, maxCheckChars: maxChars });
    },
    close: () => {
      closing ??= owned ? owned.close() : Promise.resolve();
      return closing;
    },
  };
}
