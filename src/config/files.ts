import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { parseDocument } from "yaml";
import { ConfigError } from "../errors.js";

/** Reads a YAML file; syntax errors name the file, line and column. A missing file is `undefined`. */
export async function readYaml(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`${file}: cannot read: ${(error as Error).message}`);
  }
  return parseYaml(file, text);
}

/** Parses YAML text read from `file` (or about to be written there), with readYaml's messages. */
export function parseYaml(file: string, text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        // prettyErrors fills linePos and appends the position to the message; we print it once.
        const message = (e.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:$/, "");
        return `${file}${pos ? `:${pos.line}:${pos.col}` : ""}: invalid YAML: ${message}`;
      }),
    );
  }
  try {
    // The yaml library refuses alias expansions past a budget ("billion laughs"): name the file.
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigError(`${file}: invalid YAML: ${(error as Error).message}`);
  }
}

/**
 * Writes a file so that readers see the old or the new content, never half of it: a temporary
 * file in the same directory, flushed, then renamed over the target. `mode` applies from creation,
 * so a key file is never readable by others, even for a moment.
 */
export async function writeFileAtomic(file: string, content: string, mode = 0o644): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", mode);
  try {
    await handle.writeFile(content, "utf8");
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Makes `dir` (its parents as the umask says) so that only its owner can enter or change it:
 * a config directory holds keys.yaml, and whoever can write to the directory can swap that file.
 * mkdir's mode is filtered by the umask (under `umask 000` it is world-writable), hence chmod.
 * An existing directory is left as it is; the answer says whether group or others can write to it.
 */
export async function makePrivateDir(dir: string): Promise<"created" | "private" | "writable by others"> {
  await mkdir(dirname(dir), { recursive: true });
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return ((await stat(dir)).mode & 0o022) === 0 ? "private" : "writable by others";
  }
  await chmod(dir, 0o700);
  return "created";
}
