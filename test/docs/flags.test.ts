import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/built.js";
import { help, type Invocation, invocations } from "./commands.js";
import { docPages, parsePage } from "./markdown.js";

/** Global options that take a value (so the value is not read as the command). */
const GLOBAL_WITH_VALUE = new Set(["--config"]);
/** Subcommands that read their parent's options (`batch merge` takes batch's flags; its --help says so). */
const INHERITS: Record<string, string[]> = { "batch merge": ["batch"] };

/** The command path (`batch`, `batch merge`, `keys create`) and the long flags of one invocation. */
async function parse(args: string[], subcommands: (command: string) => Promise<Set<string>>) {
  const path: string[] = [];
  const flags: string[] = [];
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg.startsWith("--")) {
      flags.push(arg.split("=")[0] ?? arg);
      if (GLOBAL_WITH_VALUE.has(arg)) i++;
    } else if (arg.startsWith("-")) continue;
    else if (positionals++ === 0) path.push(arg);
    else if (positionals === 2 && (await subcommands(path[0] ?? "")).has(arg)) path.push(arg);
  }
  return { path, flags };
}

/** Pages about one command: a bare `--flag` in their inline code is one of these commands' flags. */
const PAGE_COMMANDS: Record<string, string[][]> = {
  "docs/batch.md": [["batch"], ["batch", "merge"]],
  "docs/scaling-out.md": [["batch"], ["batch", "merge"]],
  "docs/proxy.md": [["proxy"]],
};

/** Inline code that runs another program, whose flags are not guardrail's. */
const OTHER_PROGRAM = /^(kubectl|docker|npm|npx tsx|node|pip|optimum-cli)\b/;

describe("the flags the docs give a command", () => {
  const found: Invocation[] = docPages().flatMap((page) => invocations(page));
  const helps = new Map<string, ReturnType<typeof help>>();
  const helpOf = (path: string[]) => {
    const key = path.join(" ");
    if (!helps.has(key)) helps.set(key, help(path));
    return helps.get(key) as ReturnType<typeof help>;
  };

  beforeAll(() => ensureBuilt(), 120_000);

  it("finds the invocations it checks, in code blocks, inline code and the command table", () => {
    expect(found.length).toBeGreaterThan(60);
    expect(found.some((f) => f.where.startsWith("docs/commands.md") && f.args.includes("--stream"))).toBe(
      true,
    );
  });

  it("names only commands that exist, with flags their --help lists", async () => {
    const root = await helpOf([]);
    const problems: string[] = [];
    for (const { where, args } of found) {
      const { path, flags } = await parse(args, async (c) =>
        root.commands.has(c) ? (await helpOf([c])).commands : new Set(),
      );
      if (path.length === 0) continue; // `npx guardrail --help`, or the binary named in prose
      if (!root.commands.has(path[0] ?? "")) {
        problems.push(`${where}: unknown command ${path[0]} (${args.join(" ")})`);
        continue;
      }
      const own = await helpOf(path);
      const parent = INHERITS[path.join(" ")];
      const inherited = parent ? (await helpOf(parent)).flags : new Set<string>();
      for (const flag of flags)
        if (!own.flags.has(flag) && !root.flags.has(flag) && !inherited.has(flag))
          problems.push(`${where}: guardrail ${path.join(" ")} has no ${flag}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it.each(Object.entries(PAGE_COMMANDS))(
    "%s: every --flag in its prose is one of its commands'",
    async (page, paths) => {
      const known = new Set((await helpOf([])).flags);
      for (const path of paths) for (const flag of (await helpOf(path)).flags) known.add(flag);
      const unknown = parsePage(page)
        .prose.flatMap(({ line, text }) =>
          [...text.matchAll(/`([^`]*)`/g)].flatMap(([, span = ""]) =>
            OTHER_PROGRAM.test(span)
              ? []
              : [...span.matchAll(/(?<![\w-])--[a-z][\w-]*\b(?!-)/g)].map(
                  ([flag]) => `${page}:${line}: ${flag}`,
                ),
          ),
        )
        .filter((found) => !known.has(found.split(": ")[1] ?? ""));
      expect(unknown).toEqual([]);
    },
  );
});
