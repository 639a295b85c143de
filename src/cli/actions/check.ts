import { describeOrigin } from "../../config/origin.js";
import type { Profile } from "../../config/profile.js";
import { checkInputFields, checkOutputFields, type OutputFields } from "../../engine/check-message-fields.js";
import { compileNotes } from "../../engine/compile.js";
import type { CheckOutcome, ConversationOutcome } from "../../engine/engine.js";
import { InputError, UsageError } from "../../errors.js";
import type { CheckMode } from "../../guardrails/types.js";
import { DEFAULT_MESSAGE_CHARS, overLimit } from "../../text/length.js";
import { renderMessages, renderVerdict } from "../check-format.js";
import type { CheckOptions } from "../commands/check.js";
import { compileSelected } from "../compile-selected.js";
import { type CliContext, configOrigin, printJson } from "../context.js";
import { displayPath, paint } from "../output.js";
import { readMessagesJson } from "../read-messages.js";

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
  if (options.streamMode !== undefined && !options.stream) {
    throw new UsageError("--stream-mode only applies to --stream");
  }
  const maxChars = options.maxMessageChars ?? DEFAULT_MESSAGE_CHARS;
  if (options.messages !== undefined) return runCheckMessages(options, options.messages, maxChars, ctx);
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
  return report(await engine.check(mode, message, compiled, options.prompt), mode, { profile, app }, ctx);
}

/**
 * `check --messages`: a conversation, checked as input-check checks `messages`; with `--output`,
 * the conversation the response (TEXT or stdin) answers, as output-check takes it.
 */
async function runCheckMessages(options: CheckOptions, source: string, maxChars: number, ctx: CliContext) {
  if (options.stream) throw new UsageError("--messages does not combine with --stream");
  if (source === "-" && options.output && (options.text === undefined || options.text === "-")) {
    throw new UsageError("--messages - reads stdin: pass the response to check as an argument");
  }
  if (!options.output && options.text !== undefined) {
    throw new UsageError("pass a text or --messages, not both (with --output, the text is the response)");
  }
  const raw = await readMessagesJson(source, maxChars, ctx);
  const message = options.output ? await readMessage(options.text, maxChars, ctx) : undefined;
  const fields = named(source, () =>
    message === undefined
      ? checkInputFields({ messages: raw }, maxChars)
      : checkOutputFields({ message, prompt: options.prompt, messages: raw }, maxChars),
  );
  const { profile, app, compiled, engine } = await compileSelected(ctx, options);
  for (const note of compileNotes(compiled)) ctx.io.stderr(`note: ${note}\n`);
  if ("messages" in fields)
    return report(await engine.checkMessages(fields.messages, compiled), "input", { profile, app }, ctx);
  const { prompt, systemPrompt } = fields as OutputFields;
  const outcome = await engine.check(
    "output",
    fields.message,
    compiled,
    prompt,
    systemPrompt ? { systemPrompt } : {},
  );
  return report(outcome, "output", { profile, app }, ctx);
}

/** The server's 400 and 413 words, said of the file they came from. */
function named<T>(source: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof InputError) throw new UsageError(`--messages ${source}: ${error.message}`);
    throw error;
  }
}

/** Prints a check's outcome (`--json`: the body as the server sends it) and gives the exit code. */
function report(
  outcome: CheckOutcome | ConversationOutcome,
  mode: CheckMode,
  { profile, app }: { profile: Profile; app: string | undefined },
  ctx: CliContext,
): number {
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
    if ("messages" in outcome.body) ctx.io.stdout(renderMessages(outcome.body.messages, paint(ctx.io.color)));
  }
  return outcome.body.injection_detected ? 1 : 0;
}
