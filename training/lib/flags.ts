/**
 * Typed command-line flags for the training scripts, over node:util's parseArgs. A script declares
 * its flags once (name, type, default, one line of help); `parseFlags` returns them typed, numbers
 * parsed and checked where they come in, so no `Number(values.x)` is left in the scripts.
 * Flags are declared in camelCase and spelled in kebab-case: `maxFpr` is `--max-fpr`.
 */
import { parseArgs } from "node:util";

export interface Flag<T> {
  readonly type: "string" | "boolean";
  /** What the help shows after the flag name, e.g. `<int>`. */
  readonly placeholder: string;
  readonly help: string;
  readonly defaultText?: string;
  parse(raw: string | boolean | undefined, name: string): T;
}

type Spec = Record<string, Flag<unknown>>;
export type Parsed<S extends Spec> = { [K in keyof S]: S[K] extends Flag<infer T> ? T : never };

/** A bad flag value, an unknown flag or a stray argument; `usage` is the script's help text. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** Thrown by `parseFlags` for `--help`; `runMain` prints `usage` and exits 0. */
export class HelpRequested extends Error {
  constructor(readonly usage: string) {
    super("help requested");
    this.name = "HelpRequested";
  }
}

interface Bounds {
  readonly min?: number;
  readonly max?: number;
}

function numberFlag(integer: boolean, fallback: number | undefined, help: string, bounds: Bounds) {
  return {
    type: "string",
    placeholder: integer ? "<int>" : "<number>",
    help,
    ...(fallback === undefined ? {} : { defaultText: String(fallback) }),
    parse(raw: string | boolean | undefined, name: string) {
      if (raw === undefined) return fallback;
      const value = Number(raw);
      const what = integer ? "an integer" : "a number";
      if (typeof raw !== "string" || raw.trim() === "" || !Number.isFinite(value))
        throw new Error(`--${name}: expected ${what}, got "${raw}"`);
      if (integer && !Number.isInteger(value))
        throw new Error(`--${name}: expected an integer, got "${raw}"`);
      if (bounds.min !== undefined && value < bounds.min)
        throw new Error(`--${name}: must be ≥ ${bounds.min}, got ${raw}`);
      if (bounds.max !== undefined && value > bounds.max)
        throw new Error(`--${name}: must be ≤ ${bounds.max}, got ${raw}`);
      return value;
    },
  } as const;
}

const stringFlag = (placeholder: string, fallback: string, help: string): Flag<string> => ({
  type: "string",
  placeholder,
  help,
  ...(fallback === "" ? {} : { defaultText: fallback }),
  parse: (raw) => (typeof raw === "string" ? raw : fallback),
});

const optionalStringFlag = (placeholder: string, help: string): Flag<string | undefined> => ({
  type: "string",
  placeholder,
  help,
  parse: (raw) => (typeof raw === "string" ? raw : undefined),
});

export const flag = {
  string: (fallback: string, help: string) => stringFlag("<text>", fallback, help),
  optionalString: (help: string) => optionalStringFlag("<text>", help),
  /** A file or folder; relative paths are the caller's to resolve. */
  path: (fallback: string, help: string) => stringFlag("<path>", fallback, help),
  optionalPath: (help: string) => optionalStringFlag("<path>", help),
  boolean: (help: string): Flag<boolean> => ({
    type: "boolean",
    placeholder: "",
    help,
    parse: (raw) => raw === true,
  }),
  number: (fallback: number, help: string, bounds: Bounds = {}): Flag<number> =>
    numberFlag(false, fallback, help, bounds) as Flag<number>,
  integer: (fallback: number, help: string, bounds: Bounds = {}): Flag<number> =>
    numberFlag(true, fallback, help, bounds) as Flag<number>,
  optionalInteger: (help: string, bounds: Bounds = {}): Flag<number | undefined> =>
    numberFlag(true, undefined, help, bounds) as Flag<number | undefined>,
  choice: <C extends string>(choices: readonly C[], fallback: C, help: string): Flag<C> => ({
    type: "string",
    placeholder: `<${choices.join("|")}>`,
    help,
    defaultText: fallback,
    parse(raw, name) {
      if (raw === undefined) return fallback;
      if (!choices.includes(raw as C))
        throw new Error(`--${name}: one of ${choices.join(", ")}, not "${raw}"`);
      return raw as C;
    },
  }),
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The help text: the usage line, then one line per flag with its default. */
export function usageOf(usage: string, spec: Spec): string {
  const rows = Object.entries(spec).map(
    ([key, f]) => [`--${kebab(key)} ${f.placeholder}`.trimEnd(), f] as const,
  );
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = rows.map(([left, f]) => {
    const fallback = f.defaultText === undefined ? "" : ` (default ${f.defaultText})`;
    return `  ${left.padEnd(width)}  ${f.help}${fallback}`;
  });
  return [usage, "", ...lines, `  ${"--help".padEnd(width)}  this text`].join("\n");
}

/** Parses `argv` against `spec`; throws UsageError on a bad value and HelpRequested for --help. */
export function parseFlags<S extends Spec>(usage: string, spec: S, argv: readonly string[]): Parsed<S> {
  const help = usageOf(usage, spec);
  const options = Object.fromEntries([
    ...Object.entries(spec).map(([key, f]) => [kebab(key), { type: f.type }] as const),
    ["help", { type: "boolean" }] as const,
  ]);
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false })
      .values as typeof values;
  } catch (error) {
    throw new UsageError((error as Error).message, help);
  }
  if (values.help) throw new HelpRequested(help);
  const parsed: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(spec)) {
    try {
      parsed[key] = f.parse(values[kebab(key)], kebab(key));
    } catch (error) {
      throw new UsageError((error as Error).message, help);
    }
  }
  return parsed as Parsed<S>;
}
