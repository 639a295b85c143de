import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { LineCounter, parseDocument, type YAMLError } from "yaml";
import { ConfigError } from "../errors.js";
import { type Locate, yamlLocator } from "./yaml-locate.js";

/** Reads a YAML file; syntax errors name the file, line and column. A missing file is `undefined`. */
export async function readYaml(file: string): Promise<unknown> {
  return (await readYamlLocated(file))?.value;
}

/** readYaml, with a locator that turns a field path into the line and column it was read from. */
export async function readYamlLocated(file: string): Promise<{ value: unknown; locate: Locate } | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`${file}: cannot read: ${(error as Error).message}`);
  }
  return parseYamlLocated(file, text);
}

/** Parses YAML text read from `file` (or about to be written there), with readYaml's messages. */
export function parseYaml(file: string, text: string): unknown {
  return parseYamlLocated(file, text).value;
}

/**
 * Where a syntax error shows. The yaml library places some at the start of the node it was
 * reading: for a line indented deeper than the one above, that is the value on the line above
 * (`enabled: true` ⏎ `    keywords: […]` points at `true`). When the error sits on a value after
 * `key:` and the next line is indented deeper than that key, the line to fix is the next one.
 */
function errorPosition(error: YAMLError, text: string, lines: LineCounter): string {
  const [start] = error.pos;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const before = text.slice(lineStart, start);
  const next = /\n([\t ]*)\S/.exec(text.slice(start));
  const keyIndent = /^[\t ]*/.exec(before)?.[0].length ?? 0;
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return `:${line}:${col}`;
  };
  const lineEnd = text.indexOf("\n", start);
  const rest = text.slice(start, lineEnd < 0 ? text.length : lineEnd);
  // A plain value after `key:`; a `key: value` there instead is wrong on its own line.
  const plainValue = /:[\t ]+$/.test(before) && !/:([\t ]|$)/.test(rest);
  if (plainValue && next && (next[1]?.length ?? 0) > keyIndent)
    return at(start + next.index + next[0].length - 1);
  return at(start);
}

/** parseYaml, with readYamlLocated's locator. */
export function parseYamlLocated(file: string, text: string): { value: unknown; locate: Locate } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => {
        // prettyErrors appends the position to the message; we print it once, in front.
        const message = (e.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:$/, "");
        return `${file}${errorPosition(e, text, lines)}: invalid YAML: ${message}`;
      }),
    );
  }
  try {
    // The yaml library refuses alias expansions past a budget ("billion laughs"): name the file.
    return { value: doc.toJS({ maxAliasCount: 100 }), locate: yamlLocator(doc, lines) };
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
