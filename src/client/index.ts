/**
 * `guardrail/client`: the typed HTTP client, the stream guard it shares with the library, the
 * body types and the errors. Loads nothing but these files: no engine, no models, no server.
 */
export { GuardrailBlockedError, GuardrailConnectionError, GuardrailHttpError } from "../api/errors.js";
export type * from "../api/types.js";
export {
  type CheckEvent,
  GUARD_STREAM_DEFAULTS,
  type GuardStreamOptions,
  guardStream,
  type OutputCheckFn,
  STREAM_MODES,
  type StreamMode,
} from "../stream/guard-stream.js";
export type { ChatCompletionChunkLike, StreamChunk, StreamSource } from "../stream/source.js";
export {
  CLIENT_DEFAULTS,
  GuardrailClient,
  type GuardrailClientOptions,
  type RequestOptions,
} from "./client.js";
