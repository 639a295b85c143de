import { GuardrailError } from "../errors.js";

/**
 * A model file that is missing, stale or unreadable. The message names the file and the command
 * that rebuilds it, so the CLI and the server can show it as is.
 */
export class ModelUnavailableError extends GuardrailError {
  override readonly name = "ModelUnavailableError";
  override readonly status: number = 503;
  readonly file: string;
  constructor(file: string, remedy: string, cause?: unknown) {
    super(`model file unavailable: ${file} (${remedy})`, cause === undefined ? undefined : { cause });
    this.file = file;
  }
}
