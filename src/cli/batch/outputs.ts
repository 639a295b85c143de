import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { open, rm, stat, writeFile } from "node:fs/promises";
import { dirname, extname, join, resolve } from "node:path";
import { UsageError } from "../../errors.js";
import { RESULTS_EXTENSIONS } from "../../eval/results-writer.js";

/** The files a batch run writes, resolved against the working directory. */
export interface BatchOutputs {
  readonly out?: string;
  readonly report?: string;
  readonly junit?: string;
}

const KINDS = {
  out: { flag: "--out", extensions: RESULTS_EXTENSIONS, use: "a .csv or .jsonl file" },
  report: { flag: "--report", extensions: [".html", ".htm"], use: "an .html file" },
  junit: { flag: "--junit", extensions: [".xml"], use: "an .xml file" },
} as const;

const statOf = (path: string) => stat(path).catch(() => undefined);
const same = (a: Stats | undefined, b: Stats | undefined) =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

/**
 * Why `file` cannot be written (its directory missing or read-only, …), or undefined when it can.
 * `replaced`: it is written as a new file renamed over the old one, so the directory must take
 * new files even when the file exists.
 */
async function unwritable(file: string, replaced: boolean): Promise<string | undefined> {
  const dir = dirname(file);
  const dirStats = await statOf(dir);
  if (!dirStats) return `the directory ${dir} does not exist`;
  if (!dirStats.isDirectory()) return `${dir} is not a directory`;
  const fileStats = await statOf(file);
  if (fileStats?.isDirectory()) return "that is a directory";
  // Trying is the only sure test: access() says yes to root on /sys or a read-only mount.
  const inPlace = fileStats !== undefined && !replaced;
  const probe = join(dir, `.guardrail-${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
  try {
    await (await open(inPlace ? file : probe, inPlace ? "r+" : "wx")).close();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    return inPlace ? `the file is not writable (${code})` : `the directory ${dir} is not writable (${code})`;
  }
  if (!inPlace) await rm(probe, { force: true });
  return undefined;
}

/** A usage error (exit 2) naming the flag and the path when `file` cannot be written. */
export async function requireWritable(flag: string, given: string, file: string, replaced = false) {
  const why = await unwritable(file, replaced);
  if (why) throw new UsageError(`${flag} ${given}: cannot write there: ${why}`);
}

/**
 * Checks every file the run will write before any work, so a typo in a path fails in a second
 * with exit 2, not after an hour's run: the extension says a known format, the directory exists
 * and is writable, and no output overwrites the input (which is read twice). The extensions differ
 * from flag to flag, so two outputs cannot name the same file.
 */
export async function checkOutputs(
  options: { readonly out?: string; readonly report?: string; readonly junit?: string },
  cwd: string,
  input: string | undefined,
): Promise<BatchOutputs> {
  const outputs: Record<string, string> = {};
  const inputStats = input === undefined ? undefined : await statOf(input);
  for (const [key, kind] of Object.entries(KINDS)) {
    const given = options[key as keyof typeof KINDS];
    if (given === undefined) continue;
    const file = resolve(cwd, given);
    if (!(kind.extensions as readonly string[]).includes(extname(file).toLowerCase())) {
      throw new UsageError(`${kind.flag} ${given}: use ${kind.use}`);
    }
    await requireWritable(kind.flag, given, file);
    if (file === input || same(await statOf(file), inputStats)) {
      throw new UsageError(`${kind.flag} ${given} is the data set itself; write the results elsewhere`);
    }
    outputs[key] = file;
  }
  return outputs;
}

/** Writes a report at the end of the run; a failure names the flag and the path (exit 2). */
export async function writeOutput(flag: string, file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot write: ${(error as Error).message}`);
  }
}
