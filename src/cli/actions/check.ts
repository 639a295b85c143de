import { describeOrigin } from "../../config/origin.js";
import { compileNotes } from "../../engine/compile.js";
import { UsageError } from "../../errors.js";
import { DEFAULT_MESSAGE_CHARS, overLimit } from "../../text/length.js";
import { renderVerdict } from "../check-format.js";
import type { CheckOptions } from "../commands/check.js";
import { compileSelected } from "../compile-selected.js";
import { type CliContext, configOrigin, printJson } from "../context.js";
import { displayPath, paint } from "../output.js";

/**
 * TEXT, or all of stdin when TEXT is absent or `-`, minus the one newline `echo` adds. Empty stdin
 * is an error, not an empty text to allow: in `producer | guardrail check` it means the producer
 * failed, and a gate must not pass on that.
 */
async function readMessage(text: string | undefined, maxChars: number, ctx: CliContext): Promise<string> {
  if (text !== undefined && text !== "-") return text;
  if (ctx.io.stdinIsTTY) {
    throw new UsageError(
      'no text to check: pass it as an argument (guardrail check "...") or pipe it on stdin',
    );
  }
  // A character takes at most 4 bytes in UTF-8: reading past that proves the text too long.
  const read = (await ctx.io.readStdin(4 * maxChars + 2)).replace(/\r?\n$/, "");
  if (read === "")
    throw new UsageError('stdin is empty: nothing to check (to check an empty text: guardrail check "")');
  return read;
}

function requireWithin(field: string, text: string | undefined, maxChars: number): void {
  const over = text === undefined ? undefined : overLimit(text, maxChars);
  if (over === undefined) return;
  const when = over === "normalized" ? " after Unicode normalization (NFKC)" : "";
  throw new UsageError(
    `the ${field} is longer than the limit of ${maxChars} characters${when} (the server refuses such a message with 413); raise it with --max-message-chars`,
  );
}

/** Checks one text. Resolves to 0 when allowed and 1 when flagged, so shell gates can use it. */
export async function runCheck(options: CheckOptions, ctx: CliContext): Promise<number> {
  if (options.prompt !== undefined && !options.output) {
    throw new UsageError("--prompt only applies to output checks: add --output");
  }
  if (options.profile !== undefined && options.app !== undefined) {
    throw new UsageError("pass --profile or --app, not both");
  }
  const maxChars = options.maxMessageChars ?? DEFAULT_MESSAGE_CHARS;
  if (options.stream) {
    requireWithin("prompt", options.prompt, maxChars);
    return (await import("./check-stream.js")).runCheckStream(options, maxChars, ctx);
  }
  const message = await readMessage(options.text, maxChars, ctx);
  requireWithin("text", message, maxChars);
  requireWithin("prompt", options.prompt, maxChars);
  const { profile, app, compiled, engine } = await compileSelected(ctx, options);
  for (const note of compileNotes(compiled)) ctx.io.stderr(`note: ${note}\n`);

  const mode = options.output ? "output" : "input";
  const outcome = await engine.check(mode, message, compiled, options.prompt);
  if (ctx.json) {
    // The body has no place for errors (the spec's shape, docs/service-spec.md); say so beside it.
    for (const failure of outcome.failures) {
      ctx.io.stderr(`warning: guardrail ${failure.guardrail} failed: ${failure.error.message}\n`);
    }
    printJson(ctx, outcome.body);
  } else {
    const where = {
      mode,
      profile: profile.name,
      onError: profile.onError,
      ...(app ? { app } : {}),
      // Human output only: --json prints the spec's body, unchanged (docs/service-spec.md).
      origin: describeOrigin(displayPath(ctx.cwd, profile.file), configOrigin(ctx)),
    } as const;
    ctx.io.stdout(renderVerdict(outcome, where, paint(ctx.io.color)));
  }
  return outcome.body.injection_detected ? 1 : 0;
}
