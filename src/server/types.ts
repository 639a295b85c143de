import type { HttpBindings } from "@hono/node-server";
import type { Resolved } from "../auth/resolve.js";
import type { GuardrailFailure } from "../engine/engine.js";
import { DEFAULT_MESSAGE_CHARS } from "../text/length.js";

/** One structured log line. Producers never put request content or keys in one. */
export interface LogRecord {
  readonly time: string;
  readonly level: "info" | "warn" | "error";
  readonly msg: string;
  readonly [field: string]: unknown;
}

export type Logger = (record: LogRecord) => void;

export function logRecord(level: LogRecord["level"], msg: string, fields: Record<string, unknown> = {}) {
  return { time: new Date().toISOString(), level, msg, ...fields } satisfies LogRecord;
}

export interface Limits {
  /** Largest request body read, in bytes; counted while reading, whatever Content-Length says. */
  readonly bodyBytes: number;
  /** Longest `message` (and `prompt`, and output-check's `context` and `message` together), in Unicode code points. */
  readonly messageChars: number;
}

export const DEFAULT_LIMITS: Limits = { bodyBytes: 1024 * 1024, messageChars: DEFAULT_MESSAGE_CHARS };

/** What the middlewares hand each other through hono's context. */
export interface AppEnv {
  /**
   * Node's request and response, from @hono/node-server. `app.request()` (tests) passes none:
   * `c.env` is then undefined and the handlers fall back to the web Request.
   */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    /** Set by the auth middleware; absent on requests that never authenticated. */
    resolved?: Resolved;
    /** Guardrails that threw during this request; their verdict followed `on_error`. */
    guardrailFailures?: readonly GuardrailFailure[];
    /** What the request's log line says beside the usual fields (the proxy's verdict); no content. */
    logFields?: Readonly<Record<string, unknown>>;
    /** An unexpected error answered with a bare 500; logged, never sent. */
    unexpected?: Error;
  };
}
