import { describe, expect, it } from "vitest";
import { flag, HelpRequested, parseFlags, UsageError } from "../../../training/lib/flags.js";

const FLAGS = {
  out: flag.string("models/x", "where it goes"),
  compare: flag.optionalString("a folder to compare with"),
  bits: flag.integer(18, "log2 of the buckets", { min: 8, max: 24 }),
  maxFpr: flag.number(0.02, "false-positive budget", { min: 0, max: 1 }),
  holdout: flag.optionalInteger("a fold to hold out", { min: 0, max: 4 }),
  dryRun: flag.boolean("write nothing"),
  rule: flag.choice(["pooled", "balanced"] as const, "pooled", "threshold rule"),
};
const parse = (...argv: string[]) => parseFlags("train -- [flags]", FLAGS, argv);

/** The message of the UsageError `run` throws. */
function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error("no error thrown");
}

describe("parseFlags", () => {
  it("returns the defaults, typed, when no flag is given", () => {
    const flags = parse();
    expect(flags).toEqual({
      out: "models/x",
      compare: undefined,
      bits: 18,
      maxFpr: 0.02,
      holdout: undefined,
      dryRun: false,
      rule: "pooled",
    });
  });

  it("parses numbers where they come in, spelled in kebab-case", () => {
    const flags = parse(
      "--bits",
      "16",
      "--max-fpr=1e-2",
      "--holdout",
      "0",
      "--dry-run",
      "--rule",
      "balanced",
    );
    expect(flags.bits).toBe(16);
    expect(flags.maxFpr).toBe(0.01);
    expect(flags.holdout).toBe(0);
    expect(flags.dryRun).toBe(true);
    expect(flags.rule).toBe("balanced");
  });

  it("names the flag and the value it rejects", () => {
    expect(usageError(() => parse("--bits", "x"))).toBe('--bits: expected an integer, got "x"');
    expect(usageError(() => parse("--bits", "16.5"))).toBe('--bits: expected an integer, got "16.5"');
    expect(usageError(() => parse("--max-fpr", ""))).toBe('--max-fpr: expected a number, got ""');
    expect(usageError(() => parse("--max-fpr", "Infinity"))).toMatch(/expected a number/);
    expect(usageError(() => parse("--bits", "30"))).toBe("--bits: must be ≤ 24, got 30");
    expect(usageError(() => parse("--holdout=-1"))).toBe("--holdout: must be ≥ 0, got -1");
    expect(usageError(() => parse("--rule", "strict"))).toBe('--rule: one of pooled, balanced, not "strict"');
  });

  it("rejects unknown flags and stray arguments", () => {
    expect(usageError(() => parse("--bit", "16"))).toMatch(/--bit/);
    expect(usageError(() => parse("models/y"))).toMatch(/models\/y/);
  });

  it("carries the help in every usage error, and throws it alone for --help", () => {
    try {
      parse("--help");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HelpRequested);
      const { usage } = error as HelpRequested;
      expect(usage.split("\n")[0]).toBe("train -- [flags]");
      expect(usage).toMatch(/--max-fpr <number> +false-positive budget \(default 0\.02\)/);
      expect(usage).toMatch(/--rule <pooled\|balanced> +threshold rule \(default pooled\)/);
      expect(usage).toMatch(/--dry-run +write nothing$/m);
    }
    try {
      parse("--bits", "x");
    } catch (error) {
      expect((error as UsageError).usage).toMatch(/--bits <int>/);
    }
  });
});
