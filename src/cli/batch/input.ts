import { createReadStream, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { UsageError } from "../../errors.js";
import { checkText } from "../../eval/readers/check-text.js";
import {
  FORMATS,
  formatFromExtension,
  sniffFormat,
  spoolToFile,
  type TableFormat,
} from "../../eval/readers/index.js";
import type { CliContext } from "../context.js";

export interface BatchInput {
  readonly file: string;
  /** What the summary calls the input: the path as given, or `-`. */
  readonly name: string;
  readonly format: TableFormat;
  readonly cleanup: () => Promise<void>;
}

const noCleanup = async () => {};

async function statOf(file: string, path: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === "ENOENT" || code === "ENOTDIR"
        ? `${file}: no such file`
        : `${file}: cannot read: ${(error as Error).message}`,
    );
  }
}

/** The file itself, or (a pipe, `<(…)`, a device, stdin) a copy: it is read twice, from the start. */
async function readableTwice(file: string, ctx: CliContext) {
  if (file === "-") {
    if (ctx.io.stdinIsTTY) throw new UsageError("batch -: pipe the data set on stdin, or pass a file");
    return spoolToFile(ctx.io.openStdin?.() ?? Readable.from([await ctx.io.readStdin()]));
  }
  const path = resolve(ctx.cwd, file);
  const stats = await statOf(file, path);
  if (stats.isDirectory()) throw new UsageError(`${file} is a directory; pass a CSV, TSV or JSONL file`);
  const stream = createReadStream(path);
  // Opening says whether it can be read (permissions) before anything else is done.
  await new Promise<void>((done, fail) => {
    stream
      .once("open", () => done())
      .once("error", (error) => {
        fail(new UsageError(`${file}: cannot read: ${error.message}`));
      });
  });
  if (stats.isFile()) {
    stream.destroy();
    return { file: path, cleanup: noCleanup };
  }
  return spoolToFile(stream);
}

/**
 * A file to read twice (validate, then run). Stdin, pipes and devices are copied to a temporary
 * file first, so they get the same validation pass and bounded memory as a file. A file that is
 * not UTF-8 text (binary, UTF-16, Latin-1) or has a line too long to parse stops here with exit 2.
 */
export async function openInput(
  file: string,
  format: string | undefined,
  ctx: CliContext,
): Promise<BatchInput> {
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}`);
  }
  const input = await readableTwice(file, ctx);
  try {
    const unreadable = await checkText(input.file);
    if (unreadable) throw new UsageError(`${file}: ${unreadable}`);
    const chosen =
      (format as TableFormat | undefined) ??
      (file === "-" ? undefined : formatFromExtension(file)) ??
      (await sniffFormat(input.file));
    return { file: input.file, name: file, format: chosen, cleanup: input.cleanup };
  } catch (error) {
    await input.cleanup();
    throw error;
  }
}
