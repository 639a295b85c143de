import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { lineDiff, setThresholds } from "../../src/eval/write-profile.js";

const file = new URL("../fixtures/batch/scored-config/profiles/scored.yaml", import.meta.url).pathname;

describe("setThresholds", () => {
  it("changes only the threshold, keeping comments and layout", async () => {
    const before = await readFile(file, "utf8");
    const after = setThresholds(file, before, { llm: 0.65 });
    expect(after).toBe(
      before.replace("threshold: 0.5 # keep this comment", "threshold: 0.65 # keep this comment"),
    );
  });

  it("adds a threshold the profile did not set", async () => {
    const after = setThresholds(file, await readFile(file, "utf8"), { vector: 0.8 });
    expect(after).toContain("# The classifier: tuned by");
    expect(after).toMatch(/vector:\n {4}threshold: 0.8\n/);
  });
});

describe("lineDiff", () => {
  it("shows removed and added lines with one line of context", () => {
    const before = "a\nb\nc\nd\ne\nf\n";
    const after = "a\nb\nC\nd\ne\nf\n";
    expect(lineDiff(before, after)).toBe(" b\n-c\n+C\n d\n");
    expect(lineDiff(before, before)).toBe("");
  });
});
