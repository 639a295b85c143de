import { HttpError, InputError } from "../../errors.js";
import { CLIENT_CLOSED, isClientAbort } from "../client-abort.js";

/**
 * The error body of the OpenAI API, which the proxy answers in so that the SDKs raise their usual
 * errors (`BadRequestError`, `AuthenticationError`, …) with our message in them.
 */
export interface OpenAiErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly code: string | null;
    readonly param: string | null;
    /** A request a guardrail blocked: the guardrails that flagged it, in `checks` order. */
    readonly guardrails?: readonly string[];
  };
}

/** An error the proxy answers itself, with the `code` and `param` an OpenAI client reads. */
export class ProxyError extends HttpError {
  readonly code: string;
  readonly param: string | null;
  readonly guardrails?: readonly string[];
  constructor(
    status: number,
    message: string,
    code: string,
    extra: { param?: string; guardrails?: readonly string[] } = {},
  ) {
    super(status, message);
    this.code = code;
    this.param = extra.param ?? null;
    if (extra.guardrails) this.guardrails = extra.guardrails;
  }
}

/** The codes of the errors the shared server code raises (src/server/body.ts, src/auth), by status. */
const CODES: Record<number, string> = {
  400: "invalid_request",
  401: "invalid_api_key",
  404: "not_found",
  405: "method_not_allowed",
  413: "request_too_large",
  415: "unsupported_media_type",
};

const typeOf = (status: number) =>
  status === 401 ? "authentication_error" : status >= 500 ? "server_error" : "invalid_request_error";

export function openAiError(error: ProxyError | HttpError | InputError): Response {
  const { status, message } = error;
  const own = error instanceof ProxyError ? error : undefined;
  const body: OpenAiErrorBody = {
    error: {
      message,
      type: typeOf(status),
      code: own?.code ?? CODES[status] ?? null,
      // The proxy's InputErrors are all about `messages` (checkInputFields).
      param: own?.param ?? (error instanceof InputError ? "messages" : null),
      ...(own?.guardrails ? { guardrails: own.guardrails } : {}),
    },
  };
  return Response.json(body, { status });
}

/** Any error a request ends in, as the answer the client gets (the caller logs the unexpected). */
export function answerError(error: unknown): Response {
  if (error instanceof HttpError || error instanceof InputError) return openAiError(error);
  if (isClientAbort(error)) return openAiError(new HttpError(CLIENT_CLOSED, "Client closed request"));
  return openAiError(new ProxyError(500, "Internal server error", "internal_error"));
}
