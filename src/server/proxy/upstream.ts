import { clientGoneError } from "../client-abort.js";
import { ProxyError } from "./errors.js";

/** Where the proxy sends what passed, and how long it waits. */
export interface UpstreamSettings {
  /** The upstream's base URL with its version path (`https://api.openai.com/v1`), no trailing slash. */
  readonly base: string;
  /** The longest wait for the answer's headers, the rest of a JSON answer, or a stream's next bytes. */
  readonly timeoutMs: number;
  /** A fetch to use instead of the global one (tests). */
  readonly fetch?: typeof fetch;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 300_000;

// Hop-by-hop headers (RFC 9110, 7.6.1), what fetch sets itself, and the proxy's own: never forwarded.
const NOT_FORWARDED = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "accept-encoding",
  "expect",
  "x-api-key",
  "x-app-id",
]);
// Answer headers that no longer describe the body once fetch has decoded it.
const NOT_RETURNED = new Set([...NOT_FORWARDED, "content-encoding"]);

const filtered = (headers: Headers, drop: ReadonlySet<string>) => {
  const out = new Headers();
  for (const [name, value] of headers) if (!drop.has(name)) out.append(name, value);
  return out;
};

/** The client's headers for the upstream: `Authorization` and the rest as sent, ours removed. */
export const forwardedHeaders = (incoming: Headers) => filtered(incoming, NOT_FORWARDED);
/** The upstream's answer headers for the client. */
export const returnedHeaders = (answer: Headers) => filtered(answer, NOT_RETURNED);

/**
 * A timer that aborts the upstream request when it runs out; `restart` gives it its full time again
 * (each byte of a stream does), `stop` ends it.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  restart(): void;
  stop(): void;
}

export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(timedOut(ms)), ms);
  };
  restart();
  return { signal: controller.signal, restart, stop: () => clearTimeout(timer) };
}

export const timedOut = (ms: number) =>
  new ProxyError(504, `the upstream did not answer within ${ms} ms`, "upstream_timeout");

/**
 * Calls the upstream. A network failure is a 502, the deadline a 504, a client that went away
 * ends the request (logged 499); `cancel` (the client gone, a blocked stream) aborts it at any time.
 */
export async function callUpstream(
  upstream: UpstreamSettings,
  path: string,
  init: { method: string; headers: Headers; body?: Uint8Array | string },
  cancel: AbortSignal,
): Promise<{ response: Response; timer: Deadline }> {
  const timer = deadline(upstream.timeoutMs);
  const signal = AbortSignal.any([cancel, timer.signal]);
  const call = upstream.fetch ?? fetch;
  try {
    const response = await call(`${upstream.base}${path}`, { ...init, signal, redirect: "manual" });
    return { response, timer };
  } catch (error) {
    timer.stop();
    if (cancel.aborted) throw clientGoneError();
    if (timer.signal.aborted) throw timer.signal.reason;
    throw new ProxyError(
      502,
      `the upstream could not be reached (${reasonOf(error)})`,
      "upstream_unreachable",
    );
  }
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : "error");
}
