import { InvalidArgumentError } from "@commander-js/extra-typings";
import { describe, expect, it } from "vitest";
import { fraction, gateFraction, integer, oneOf } from "../../src/cli/flag-parsers.js";
import { UsageError } from "../../src/errors.js";

describe("flag parsers", () => {
  it("integer: whole numbers in range, else commander's invalid-argument error", () => {
    const port = integer("--port", 0, 65535);
    expect(port("0")).toBe(0);
    expect(port("65535")).toBe(65535);
    for (const bad of ["65536", "-1", "1.5", "1e3", " 8", "", "x"]) {
      expect(() => port(bad)).toThrow(InvalidArgumentError);
      expect(() => port(bad)).toThrow("--port must be a whole number from 0 to 65535");
    }
    expect(() => integer("--n", 1)("0")).toThrow(
      `--n must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`,
    );
  });

  it("fraction: numbers in [0, 1], else a usage error", () => {
    const fpr = fraction("--target-fpr");
    expect(fpr("0")).toBe(0);
    expect(fpr("0.05")).toBe(0.05);
    expect(fpr("1")).toBe(1);
    expect(fpr(".5")).toBe(0.5);
    for (const bad of ["1.01", "-0.1", "", " ", "x", "NaN", "Infinity"]) {
      expect(() => fpr(bad)).toThrow(UsageError);
      expect(() => fpr(bad)).toThrow(/^--target-fpr must be a number from 0 to 1$/);
    }
  });

  it("gateFraction: the same range, the value quoted as --fail-under quotes it", () => {
    expect(gateFraction("--max-fpr")("0.02")).toBe(0.02);
    expect(() => gateFraction("--max-fpr")("2")).toThrow(/^--max-fpr: "2" is not a number from 0 to 1$/);
  });

  it("oneOf: one of the words, typed as them", () => {
    const mode = oneOf("--mode", ["input", "output"]);
    const parsed: "input" | "output" = mode("output");
    expect(parsed).toBe("output");
    expect(() => mode("Input")).toThrow(/^--mode must be input or output$/);
    expect(() => oneOf("--x", ["a", "b", "c"])("d")).toThrow(/^--x must be a, b or c$/);
  });
});
