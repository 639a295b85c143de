import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./built.js";

export interface Instruction {
  readonly keyword: string;
  /** The arguments as written, continuation lines joined. */
  readonly args: string;
  /** Exec form (`["node", "x"]`) parsed; undefined for shell form. */
  readonly exec?: readonly string[];
}

export interface Stage {
  readonly from: string;
  readonly name?: string;
  readonly instructions: readonly Instruction[];
}

function execForm(args: string): string[] | undefined {
  if (!args.startsWith("[")) return undefined;
  return JSON.parse(args) as string[];
}

/**
 * The repository's Dockerfile as stages of instructions: enough of the format (comments,
 * continuation lines, exec form) to check what it names, not a general parser.
 */
export function readDockerfile(file = join(root, "Dockerfile")): Stage[] {
  const joined = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ");
  const stages: { from: string; name?: string; instructions: Instruction[] }[] = [];
  for (const line of joined.split("\n")) {
    const match = /^\s*([A-Za-z]+)\s+(.*?)\s*$/.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    const keyword = match[1].toUpperCase();
    const args = match[2].replace(/\s+/g, " ");
    if (keyword === "FROM") {
      const [from = "", , name] = args.split(" ");
      stages.push({ from, ...(name ? { name } : {}), instructions: [] });
      continue;
    }
    const exec = execForm(args);
    stages.at(-1)?.instructions.push({ keyword, args, ...(exec ? { exec } : {}) });
  }
  return stages;
}

/** The instructions of one stage with `keyword`. */
export const having = (stage: Stage | undefined, keyword: string) =>
  (stage?.instructions ?? []).filter((i) => i.keyword === keyword);

/** The `npm ci …` arguments of the stage named `name` (after `npm`, before any `&&`). */
export function npmCiArgs(stages: readonly Stage[], name: string): string[] {
  const run = having(
    stages.find((s) => s.name === name),
    "RUN",
  ).find((i) => i.args.startsWith("npm ci"));
  if (!run) throw new Error(`no \`RUN npm ci\` in stage ${name}`);
  return (run.args.split("&&")[0] ?? "").trim().split(" ").slice(1);
}
