import { describe, expect, it } from "vitest";
import { bar, duration, eta, rate } from "../../../src/cli/batch-view/format.js";

describe("view figures", () => {
  it.each([
    [0, "0s"],
    [59.4, "59s"],
    [65, "1m 05s"],
    [3725, "1h 02m"],
    [Number.POSITIVE_INFINITY, "–"],
  ])("duration(%s) is %s", (seconds, text) => {
    expect(duration(seconds)).toBe(text);
  });

  it("estimates the time left from the average rate", () => {
    expect(eta(250, 1000, 50)).toBe(15);
    expect(eta(10, null, 50)).toBeNull();
    expect(eta(0, 1000, 0)).toBeNull();
    expect(eta(1200, 1000, 50)).toBe(0);
  });

  it("draws bars of a fixed width in eighths", () => {
    for (const f of [0, 0.01, 0.33, 0.5, 0.999, 1, 1.5, -1]) expect([...bar(f, 12)]).toHaveLength(12);
    expect(bar(0.5, 4)).toBe("██  ");
    expect(bar(1 / 16, 2)).toBe("▏ ");
    expect(bar(1 / 4, 2)).toBe("▌ ");
  });

  it("rounds rates to what can be read", () => {
    expect(rate(1234.5)).toBe("1235");
    expect(rate(12.34)).toBe("12.3");
  });
});
