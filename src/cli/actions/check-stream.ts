import { GuardrailBlockedError } from "../../api/errors.js";
import type { OutputCheckResponse } from "../../api/types.js";
import { describeOrigin } from "../../config/origin.js";
import { compileNotes } from "../../engine/compile.js";
import type { CheckOutcome } from "../../engine/engine.js";
import { UsageError } from "../../errors.js";
import { guardStream, type OutputCheckFn } from "../../stream/guard-stream.js";
import { renderVerdict } from "../check-format.js";
import type { CheckOptions } from "../commands/check.js";
import { compileSelected } from "../compile-selected.js";
import { type CliContext, configOrigin, printJson } from "../context.js";
import { displayPath, paint } from "../output.js";

/** stdin as it arrives, counting what came: an empty stream is a failed producer, not a pass. */
async function* counted(
  source: AsyncIterable<Uint8Array | string>,
  seen: { bytes: number },
): AsyncGenerator<Uint8Array | string> {
  for await (const chunk of source) {
    seen.bytes += chunk.length;
    yield chunk;
  }
}

async function* readAll(ctx: CliContext): AsyncGenerator<string> {
  yield await ctx.io.readStdin();
}

/**
 * `check --output --stream`: stdin checked chunk by chunk as it arrives, through the same stream
 * guard as the client and the library (each chunk with the text before it as context, a final
 * check of the whole response). Text is written to stdout once it has passed; the first flag
 * stops reading and prints the verdict on stderr. With --json, one verdict line per check instead.
 */
export async function runCheckStream(
  options: CheckOptions,
  maxChars: number,
  ctx: CliContext,
): Promise<number> {
  if (!options.output) throw new UsageError("--stream only applies to output checks: add --output");
  if (options.text !== undefined && options.text !== "-") {
    throw new UsageError("--stream checks stdin as it arrives: pass no text (or -) and pipe the response in");
  }
  if (ctx.io.stdinIsTTY) throw new UsageError("--stream needs the response piped on stdin");
  const { profile, app, compiled, engine } = await compileSelected(ctx, options);
  for (const note of compileNotes(compiled)) ctx.io.stderr(`note: ${note}\n`);

  let last: CheckOutcome | undefined;
  const check: OutputCheckFn = async (message, { prompt, context, signal }) => {
    last = await engine.check("output", message, compiled, prompt, {
      ...(signal ? { signal } : {}),
      ...(context !== undefined ? { context } : {}),
    });
    for (const failure of last.failures) {
      ctx.io.stderr(`warning: guardrail ${failure.guardrail} failed: ${failure.error.message}\n`);
    }
    return last.body as unknown as OutputCheckResponse; // held to the engine by test/api
  };
  const seen = { bytes: 0 };
  // Without a stream to open (tests that pass stdin as a string), all of it is one chunk.
  const stdin = ctx.io.openStdin?.();
  const stream = guardStream(check, counted(stdin ?? readAll(ctx), seen), {
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    ...(options.streamMode !== undefined ? { mode: options.streamMode } : {}),
    maxCheckChars: maxChars,
    ...(ctx.json ? { onCheck: (event) => printJson(ctx, event.response) } : {}),
  });
  try {
    for await (const text of stream) if (!ctx.json) ctx.io.stdout(text);
  } catch (error) {
    if (!(error instanceof GuardrailBlockedError) || !last) throw error;
    if (!ctx.json) {
      const where = {
        mode: "output" as const,
        profile: profile.name,
        onError: profile.onError,
        ...(app ? { app } : {}),
        origin: describeOrigin(displayPath(ctx.cwd, profile.file), configOrigin(ctx)),
      };
      ctx.io.stderr(renderVerdict(last, where, paint(false)));
    }
    return 1;
  } finally {
    // A read still pending holds the iterator's return() back until the producer writes again:
    // destroying stdin ends it now, so a flag stops reading at once and the process can exit.
    stdin?.destroy();
  }
  if (seen.bytes === 0) throw new UsageError("stdin is empty: nothing to check");
  return 0;
}
