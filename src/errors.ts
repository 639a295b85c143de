/**
 * The handful of errors the product raises on purpose. Each carries the exit code the CLI
 * uses and the HTTP status the server answers with; they are mapped only at the edges.
 * Exit codes: 0 ran and nothing flagged, 1 flagged or a gate failed, 2 usage, config or fatal error.
 */
export class GuardrailError extends Error {
  readonly exitCode: number = 2;
  readonly status: number = 500;
}

/** A command used wrongly: bad flags, missing arguments, unreadable input. */
export class UsageError extends GuardrailError {
  override readonly name = "UsageError";
}

/** A config directory, profile, app or key file that does not validate. Lists every problem. */
export class ConfigError extends GuardrailError {
  override readonly name = "ConfigError";
  readonly problems: readonly string[];
  constructor(problems: readonly string[] | string) {
    const list = typeof problems === "string" ? [problems] : problems;
    super(list.length === 1 ? (list[0] ?? "") : `invalid configuration:\n  ${list.join("\n  ")}`);
    this.problems = list;
  }
}

/**
 * A message the library refuses, in the server's words and with its status: 400 for a field of the
 * wrong type, 413 for a text over the character limit.
 */
export class InputError extends GuardrailError {
  override readonly name = "InputError";
  override readonly status: number;
  constructor(status: 400 | 413, message: string) {
    super(message);
    this.status = status;
  }
}

/** A request the server refuses; the message is safe to show the caller. */
export class HttpError extends GuardrailError {
  override readonly name = "HttpError";
  override readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export const invalidApiKey = (): HttpError => new HttpError(401, "Invalid API key");
export const appNotFound = (): HttpError => new HttpError(404, "App not found");
export const noDefaultProfile = (): HttpError =>
  new HttpError(404, "Default security profile not configured");
