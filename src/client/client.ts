/**
 * A typed client for the HTTP interface (docs/service-spec.md), on Node's global fetch and nothing
 * else. Checks change nothing on the server, so retrying one is always safe: a timeout, a dropped
 * connection or a 502/503/504 (a proxy with no healthy replica, a server shutting down) is retried
 * with backoff; every other answer, 4xx included, is final.
 */
import { GuardrailConnectionError, GuardrailHttpError } from "../api/errors.js";
import type {
  ErrorBody,
  InputCheckInput,
  InputCheckResponse,
  OutputCheckOptions,
  OutputCheckResponse,
} from "../api/types.js";
import { type GuardStreamOptions, guardStream } from "../stream/guard-stream.js";
import type { StreamSource } from "../stream/source.js";

export interface GuardrailClientOptions {
  /** Where the server listens, e.g. `http://localhost:8080` (a path prefix is kept). */
  baseUrl: string | URL;
  /** The organization's API key, sent as `X-API-Key`. */
  apiKey: string;
  /** Sent as `X-App-ID`; without it the server uses its default profile. */
  appId?: string;
  /** Per attempt, in milliseconds (default 10,000). */
  timeoutMs?: number;
  /** Attempts after the first (default 2). */
  retries?: number;
  /** The first retry waits about this long, doubling per retry (default 250 ms). */
  retryDelayMs?: number;
  /** No wait is longer than this (default 4,000 ms). */
  maxRetryDelayMs?: number;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** Cancels the request (and its retries); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export const CLIENT_DEFAULTS = {
  timeoutMs: 10_000,
  retries: 2,
  retryDelayMs: 250,
  maxRetryDelayMs: 4_000,
} as const;
const PATH = "apikey/api/guardrail/v1/";
const RETRY_STATUSES = new Set([502, 503, 504]);

export class GuardrailClient {
  readonly #base: URL;
  readonly #headers: Record<string, string>;
  readonly #settings: Required<Omit<GuardrailClientOptions, "baseUrl" | "apiKey" | "appId">>;

  constructor(options: GuardrailClientOptions) {
    const base = new URL(options.baseUrl);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    this.#base = base;
    this.#headers = {
      "content-type": "application/json",
      accept: "application/json",
      "x-api-key": options.apiKey,
      ...(options.appId !== undefined ? { "x-app-id": options.appId } : {}),
    };
    this.#settings = {
      timeoutMs: options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs,
      retries: options.retries ?? CLIENT_DEFAULTS.retries,
      retryDelayMs: options.retryDelayMs ?? CLIENT_DEFAULTS.retryDelayMs,
      maxRetryDelayMs: options.maxRetryDelayMs ?? CLIENT_DEFAULTS.maxRetryDelayMs,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    };
  }

  /**
   * input-check: inspects a user prompt before it reaches the model, or a conversation
   * (`{ messages }`: the answer then says which message each guardrail flagged).
   */
  inputCheck(input: InputCheckInput, options: RequestOptions = {}): Promise<InputCheckResponse> {
    const body = typeof input === "string" ? { message: input } : { messages: input.messages };
    return this.#post<InputCheckResponse>("input-check", body, options.signal);
  }

  /** output-check: inspects a model response (or, with `context`, the next chunk of one). */
  outputCheck(
    message: string,
    options: OutputCheckOptions & RequestOptions = {},
  ): Promise<OutputCheckResponse> {
    const { prompt, context, messages, signal } = options;
    const body = {
      message,
      ...(prompt !== undefined ? { prompt } : {}),
      ...(context !== undefined ? { context } : {}),
      ...(messages !== undefined ? { messages } : {}),
    };
    return this.#post<OutputCheckResponse>("output-check", body, signal);
  }

  /** Guards a streamed response with output-check; see guardStream in src/stream/guard-stream.ts. */
  guardStream(
    source: StreamSource,
    options: GuardStreamOptions = {},
  ): AsyncGenerator<string, void, undefined> {
    return guardStream((message, o) => this.outputCheck(message, o), source, options);
  }

  async #post<T>(endpoint: string, body: object, signal: AbortSignal | undefined): Promise<T> {
    const { timeoutMs, retries, fetch } = this.#settings;
    const url = new URL(PATH + endpoint, this.#base);
    const json = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const init = { method: "POST", headers: this.#headers, body: json };
        const response = await fetch(url, {
          ...init,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const text = await response.text();
        if (response.ok) return parseBody<T>(response.status, text);
        const error = httpError(response.status, text);
        if (!RETRY_STATUSES.has(response.status) || attempt >= retries) throw error;
      } catch (error) {
        if (error instanceof GuardrailHttpError) throw error;
        signal?.throwIfAborted();
        if (attempt >= retries) {
          const timedOut = timeout.aborted;
          const what = timedOut
            ? `did not answer within ${timeoutMs} ms`
            : `could not be reached (${reasonOf(error)})`;
          throw new GuardrailConnectionError(
            `guardrail server at ${url.origin} ${what}; ${attempt + 1} attempt(s)`,
            {
              cause: error,
              attempts: attempt + 1,
              timedOut,
            },
          );
        }
      }
      await sleep(this.#delay(attempt), signal);
    }
  }

  /** Exponential backoff with equal jitter: between half and all of base · 2^attempt, capped. */
  #delay(attempt: number): number {
    const { retryDelayMs, maxRetryDelayMs } = this.#settings;
    const ceiling = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** attempt);
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }
}

function parseBody<T>(status: number, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new GuardrailHttpError(status, "the server's answer is not JSON", text);
  }
}

function httpError(status: number, text: string): GuardrailHttpError {
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  const message = (body as Partial<ErrorBody> | null)?.error;
  return new GuardrailHttpError(status, typeof message === "string" ? message : `HTTP ${status}`, body);
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}
