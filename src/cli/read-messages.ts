import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import type { CliContext } from "./context.js";

/**
 * `--messages FILE|-`: the JSON text of a chat messages array, from a file (relative to the working
 * directory) or all of stdin. Parsed here; its shape is checked where the server checks it
 * (src/engine/check-message-fields.ts), so the CLI refuses what the server refuses.
 */
export async function readMessagesJson(source: string, maxChars: number, ctx: CliContext): Promise<unknown> {
  let text: string;
  if (source === "-") {
    if (ctx.io.stdinIsTTY) throw new UsageError("--messages -: pipe the JSON array of messages on stdin");
    // As for a text: a character takes at most 4 bytes, and JSON escapes take 6 for one; enough to prove it too long.
    text = await ctx.io.readStdin(6 * maxChars + 1024);
  } else {
    try {
      text = await readFile(resolve(ctx.cwd, source), "utf8");
    } catch (error) {
      throw new UsageError(`--messages ${source}: cannot read (${(error as NodeJS.ErrnoException).code})`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--messages ${source}: not JSON (${(error as Error).message})`);
  }
}
