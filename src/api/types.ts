/**
 * The HTTP interface's bodies as TypeScript types (docs/service-spec.md, "Endpoints" and "Errors";
 * the shapes the spec leaves open are README.md's "Decisions where the spec is silent"). Types
 * only: the client and the library import this without loading anything. Each check is a union of
 * its enabled and its disabled shape; an enabled guardrail that failed while checking keeps its
 * enabled shape with a null score (the profile's `on_error` decides `detected`).
 * test/api/types.test.ts holds these to the engine's real bodies, at compile time and at run time.
 */

/** `llm` (input-check): prompt-injection score in [0, 1]; at or above `threshold` is injection. */
export type LlmCheck =
  | { enabled: true; score: number | null; threshold: number | null }
  | { enabled: false; score: null; threshold: null };

/** `vector` (input-check): cosine similarity to known injections. */
export type VectorCheck = { enabled: true; score: number | null } | { enabled: false; score: null };

/** `keyword` (both endpoints): the configured keywords that matched. */
export type KeywordCheck =
  | { enabled: true; detected: boolean; matched: string[] }
  | { enabled: false; detected: false; matched: [] };

/** `regex` (both endpoints): the names of the patterns that matched. */
export type RegexCheck =
  | { enabled: true; detected: boolean; matched: string[] }
  | { enabled: false; detected: false; matched: [] };

/** `pii` (both endpoints): the entity types found (`EMAIL_ADDRESS`, `CREDIT_CARD`, …). */
export type PiiCheck =
  | { enabled: true; detected: boolean; entities: string[] }
  | { enabled: false; detected: false; entities: [] };

/**
 * `content_moderation` (output-check): `category` is a `CATEGORIES: <CATEGORY>` label when unsafe.
 * `signals` (beyond the spec): the bundled model's two calibrated probabilities, toxic text and
 * harmful compliance, each flagged from its own operating point. Null when disabled, for a model
 * of your own or a failed check (the key is always there, as every guardrail's keys are).
 */
export type ContentModerationCheck =
  | {
      enabled: true;
      result: "SAFE" | "UNSAFE";
      unsafe: boolean;
      category: `CATEGORIES: ${string}` | null;
      signals: { toxic: number; compliance: number } | null;
    }
  | { enabled: false; result: null; unsafe: false; category: null; signals: null };

/** `system_prompt_protection` (output-check): whether the response leaks its system prompt. */
export type SystemPromptProtectionCheck =
  | { enabled: true; detected: boolean; score: number | null; threshold: number | null }
  | { enabled: false; detected: false; score: null; threshold: null };

/** input-check's `checks`, in the order the server writes them. */
export interface InputChecks {
  llm: LlmCheck;
  keyword: KeywordCheck;
  regex: RegexCheck;
  pii: PiiCheck;
  vector: VectorCheck;
}

/** output-check's `checks`, in the order the server writes them. */
export interface OutputChecks {
  content_moderation: ContentModerationCheck;
  keyword: KeywordCheck;
  regex: RegexCheck;
  pii: PiiCheck;
  system_prompt_protection: SystemPromptProtectionCheck;
}

/** A chat message as input-check reads it (the OpenAI chat shape; docs/conversations.md). */
export interface ChatMessageInput {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  /** A string, null, or content parts: `{ type: "text", text }` is read, other parts are skipped. */
  content?: string | null | ({ type: "text"; text: string } | { type: string; [field: string]: unknown })[];
  /** An assistant's tool calls: their `arguments` are scanned (secrets and personal data leaving). */
  tool_calls?: { id?: string; type?: string; function: { name: string; arguments: string } }[];
  /** A tool message's answer to a call. */
  tool_call_id?: string;
  [field: string]: unknown;
}

/**
 * One entry of input-check's `messages` (beyond the spec), present only when the request sent
 * `messages`: which guardrails flagged which message, to act on (drop the tool result that
 * carried an attack, say).
 */
export interface MessageVerdict {
  /** Its index in the request's `messages`. */
  index: number;
  role: ChatMessageInput["role"];
  /** Whether any guardrail read it (the profile's `conversation` settings decide). */
  scanned: boolean;
  /** The guardrails that flagged its content or its tool calls' arguments, in `checks` order. */
  flagged_by: (keyof InputChecks)[];
  /** Content parts that are not text (images, audio, files): not read. */
  skipped_parts: number;
}

/** 200 from `POST /apikey/api/guardrail/v1/input-check`. */
export interface InputCheckResponse {
  /** True when at least one enabled guardrail flagged the text. */
  injection_detected: boolean;
  /** Seconds. */
  execution_time: number;
  checks: InputChecks;
  /** Only for a request with `messages`: one entry per message, in order. */
  messages?: MessageVerdict[];
}

/** 200 from `POST /apikey/api/guardrail/v1/output-check`. */
export interface OutputCheckResponse {
  /** True when at least one enabled guardrail flagged the text. */
  injection_detected: boolean;
  /** Seconds. */
  execution_time: number;
  checks: OutputChecks;
}

/** What input-check inspects: one user prompt (the spec's `message`), or a conversation. */
export type InputCheckInput = string | { messages: ChatMessageInput[] };

/** output-check's optional request fields beside `message`. */
export interface OutputCheckOptions {
  /**
   * The conversation the response answers: without `prompt`, its last user turn is the prompt;
   * its system and developer messages are the system prompt when the profile configures none.
   */
  messages?: ChatMessageInput[];
  /** The prompt that produced the response: improves system prompt protection. */
  prompt?: string;
  /**
   * Streaming: the text of the same response that came before `message` (a bounded tail). The
   * server checks `context + message` and reports only matches the new chunk completes.
   */
  context?: string;
}

/** The body of every error response. */
export interface ErrorBody {
  error: string;
}
