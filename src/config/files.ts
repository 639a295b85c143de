import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
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
  return doc.toJS();
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
