import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { bin } from "../helpers/built.js";
import { parsePage } from "./markdown.js";

/** `npx guardrail …` and the other ways the docs start the binary. */
const INVOCATION =
  /(?:npx guardrail|node (?:\S*\/)?bin\/guardrail\.js|node_modules\/\.bin\/guardrail)(?=\s|$)(.*)/;

export interface Invocation {
  readonly where: string;
  /** What follows the binary: its arguments, quoted strings removed. */
  readonly args: string[];
}

function tokens(rest: string): string[] {
  return rest
    .replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, " QUOTED ")
    .replace(/\s#\s.*$/, "")
    .replace(/[[\]|…]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
}

/** A code block's shell lines, continuations (`\` and YAML's folded `--…` lines) joined. */
function logicalLines(body: string): { offset: number; text: string }[] {
  const out: { offset: number; text: string }[] = [];
  for (const [offset, line] of body.split("\n").entries()) {
    const last = out.at(-1);
    if (last && (last.text.endsWith("\\") || /^\s*--/.test(line)))
      last.text = `${last.text.replace(/\\$/, "")} ${line}`;
    else out.push({ offset, text: line });
  }
  return out;
}

/** Every place a page runs the binary: code blocks, inline code, and the flag rows of a command table. */
export function invocations(page: string): Invocation[] {
  const { blocks, prose } = parsePage(page);
  const out: Invocation[] = [];
  for (const block of blocks)
    for (const { offset, text } of logicalLines(block.body))
      for (const segment of text.split(/\|\||&&|[|;]|\$\(|\)/)) {
        const match = INVOCATION.exec(segment);
        if (match) out.push({ where: `${page}:${block.line + 1 + offset}`, args: tokens(match[1] ?? "") });
      }
  let tableCommand: string[] | undefined;
  for (const { line, text } of prose) {
    const row = text.startsWith("|");
    if (!row) tableCommand = undefined;
    for (const [index, [, span = ""]] of [...text.matchAll(/`([^`]+)`/g)].entries()) {
      const match = INVOCATION.exec(span);
      if (match) {
        out.push({ where: `${page}:${line}`, args: tokens(match[1] ?? "") });
        if (row && index === 0)
          tableCommand = out
            .at(-1)
            ?.args.filter((t) => !t.startsWith("-"))
            .slice(0, 2);
      } else if (row && index === 0 && tableCommand && /^\s*--/.test(span)) {
        out.push({ where: `${page}:${line}`, args: [...tableCommand, ...tokens(span)] });
      }
    }
  }
  return out;
}

const run = promisify(execFile);

/** The long options a `--help` lists, and its subcommands. */
export async function help(command: string[]): Promise<{ flags: Set<string>; commands: Set<string> }> {
  const { stdout } = await run(process.execPath, [bin, ...command, "--help"], {
    env: { ...process.env, COLUMNS: "200" },
  });
  const section = (name: string) => stdout.split(`\n${name}:\n`)[1]?.split(/\n\n/)[0] ?? "";
  const flags = [...section("Options").matchAll(/^\s{2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1] ?? "");
  const commands = [...section("Commands").matchAll(/^\s{2}([\w-]+)/gm)].map((m) => m[1] ?? "");
  return { flags: new Set(flags), commands: new Set(commands) };
}
