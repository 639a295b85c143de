// The package's main entry: the engine in process, for Node apps that want no server. Importing it
// loads nothing heavy; createGuardrail loads the guardrails, and the encoder when the profile needs it.
import type { Guardrail, GuardrailOptions } from "./library/guardrail.js";

export { GuardrailBlockedError } from "./api/errors.js";
export type * from "./api/types.js";
export { ConfigError, GuardrailError, InputError, UsageError } from "./errors.js";
export type { Guardrail, GuardrailOptions, GuardrailStreamOptions } from "./library/guardrail.js";
export { ModelUnavailableError } from "./models/model-error.js";
export { type CheckEvent, STREAM_MODES, type StreamMode } from "./stream/guard-stream.js";
export type { ChatCompletionChunkLike, StreamChunk, StreamSource } from "./stream/source.js";

/**
 * A profile compiled and ready to check texts in this process: `profile` a bundled profile's name
 * (`default`, `strict`) or a profile YAML file, `config` a config directory whose profiles `profile`
 * names (default: its default profile). Call `close()` when done so the encoder threads stop.
 */
export async function createGuardrail(options: GuardrailOptions = {}): Promise<Guardrail> {
  const [{ openGuardrail }, { builtinGuardrails }] = await Promise.all([
    import("./library/guardrail.js"),
    import("./guardrails/registry.js"),
  ]);
  return openGuardrail(options, { registry: builtinGuardrails });
}
