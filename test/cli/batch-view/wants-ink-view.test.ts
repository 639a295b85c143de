import { describe, expect, it } from "vitest";
import { wantsInkView } from "../../../src/cli/batch-view/wants-ink-view.js";

describe("wantsInkView", () => {
  const tty = { isTTY: true, env: {} };

  it("draws on an interactive terminal", () => {
    expect(wantsInkView(tty)).toBe(true);
    expect(wantsInkView({ ...tty, env: { NO_COLOR: "1" } })).toBe(true); // colourless, still live
    expect(wantsInkView({ ...tty, env: { CI: "false" } })).toBe(true);
  });

  it.each([
    ["not a TTY", { ...tty, isTTY: false }],
    ["CI set", { ...tty, env: { CI: "true" } }],
    ["CI=1", { ...tty, env: { CI: "1" } }],
    ["--json", { ...tty, json: true }],
    ["--quiet", { ...tty, quiet: true }],
    ["a dumb terminal", { ...tty, env: { TERM: "dumb" } }],
  ])("prints plain lines when %s", (_, conditions) => {
    expect(wantsInkView(conditions)).toBe(false);
  });
});
