import { availableParallelism } from "node:os";
import { type CompiledProfile, compileNotes, compileProfile, needsEncoder } from "../engine/compile.js";
import { type CheckResponse, createEngine } from "../engine/engine.js";
import { ConfigError, UsageError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import type { Encoder } from "../models/encoder.js";
import { DEFAULT_LIMITS } from "../server/types.js";
import { type ProfileSource, selectProfile } from "./select-profile.js";
import { checkFields } from "./validate.js";

export interface GuardrailOptions extends ProfileSource {
  /** Longest message, prompt or context, in Unicode code points (default: the server's 100,000). */
  readonly maxMessageChars?: number;
  /** Threads running the sentence encoder (default min(2, cores)); 0 runs it on the calling thread. */
  readonly encoderWorkers?: number;
}

export interface OutputCheckOptions {
  /** The prompt that produced the response. */
  readonly prompt?: string;
  /** The text of the same response before `message` (a streamed response, checked chunk by chunk). */
  readonly context?: string;
}

/** A compiled profile and the engine to run it, in this process. */
export interface Guardrail {
  /** The name of the profile in use. */
  readonly profile: string;
  /** What compiling the profile noticed (a guardrail falling back, say), one line each. */
  readonly notes: readonly string[];
  /** The response body of POST input-check. */
  inputCheck(message: string): Promise<CheckResponse>;
  /** The response body of POST output-check. */
  outputCheck(message: string, options?: OutputCheckOptions): Promise<CheckResponse>;
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
async function defaultEncoder(workers: number): Promise<Encoder> {
  if (workers === 0) return (await import("../models/use-lite/encoder.js")).createUseLiteEncoder();
  return (await import("../models/use-lite/encoder-pool.js")).createPooledEncoder({ workers });
}

async function compile(source: ProfileSource, deps: GuardrailDeps, workers: number) {
  const selected = await selectProfile(source, deps.registry, deps.cwd);
  const wanted = needsEncoder(selected, deps.registry);
  const owned = wanted && !deps.encoder ? await defaultEncoder(workers) : undefined;
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
  const maxChars = options.maxMessageChars ?? DEFAULT_LIMITS.messageChars;
  const workers = options.encoderWorkers ?? Math.min(2, availableParallelism());
  const { compiled, encoder, owned } = await compile(options, deps, workers);
  const engine = createEngine({ registry: deps.registry, ...(encoder ? { encoder } : {}) });
  let closing: Promise<void> | undefined;
  const open = () => {
    if (closing) throw new UsageError("this guardrail is closed: create another with createGuardrail()");
  };
  return {
    profile: compiled.profile.name,
    notes: compileNotes(compiled),
    inputCheck: async (message) => {
      open();
      const fields = checkFields({ message }, maxChars);
      return (await engine.check("input", fields.message, compiled)).body;
    },
    outputCheck: async (message, checkOptions = {}) => {
      open();
      const { prompt, context } = checkOptions;
      const fields = checkFields({ message, prompt, context }, maxChars);
      const withContext = fields.context === undefined ? {} : { context: fields.context };
      return (await engine.check("output", fields.message, compiled, fields.prompt, withContext)).body;
    },
    close: () => {
      closing ??= owned ? owned.close() : Promise.resolve();
      return closing;
    },
  };
}
