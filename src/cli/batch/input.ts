import { access } from "node:fs/promises";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { UsageError } from "../../errors.js";
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

/**
 * A file to read twice (validate, then run). Stdin is copied to a temporary file first, so it gets
 * the same validation pass and bounded memory as a file.
 */
export async function openInput(
  file: string,
  format: string | undefined,
  ctx: CliContext,
): Promise<BatchInput> {
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}`);
  }
  if (file === "-") {
    if (ctx.io.stdinIsTTY) throw new UsageError("batch -: pipe the data set on stdin, or pass a file");
    const stream = ctx.io.openStdin?.() ?? Readable.from([await ctx.io.readStdin()]);
    const spooled = await spoolToFile(stream);
    const chosen = (format as TableFormat | undefined) ?? (await sniffFormat(spooled.file));
    return { file: spooled.file, name: "-", format: chosen, cleanup: spooled.cleanup };
  }
  const path = resolve(ctx.cwd, file);
  try {
    await access(path);
  } catch {
    throw new UsageError(`${file}: no such file`);
  }
  const chosen =
    (format as TableFormat | undefined) ?? formatFromExtension(path) ?? (await sniffFormat(path));
  return { file: path, name: file, format: chosen, cleanup: async () => {} };
}
