import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
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

describe("setThresholds keeps the file byte for byte", () => {
  const profile = [
    "# top comment",
    "guardrails:",
    "  keyword: { enabled: true, keywords: [ignore previous instructions, a really long phrase that a printer would wrap somewhere past eighty columns] }",
    "  llm:",
    "    enabled: true   # aligned comment",
    "    threshold: 0.50",
    "  vector: { enabled: true }",
    "  content_moderation:",
    "    enabled: true",
    "    # a comment after the last item",
    "",
  ].join("\n");

  it("changes only the values written, and adds missing ones in the mapping's own layout", () => {
    const after = setThresholds("p.yaml", profile, { llm: 0.7123, vector: 0.8, content_moderation: 0.4 });
    expect(after).toBe(
      profile
        .replace("threshold: 0.50", "threshold: 0.7123")
        .replace("vector: { enabled: true }", "vector: { enabled: true, threshold: 0.8 }")
        .replace(
          "  content_moderation:\n    enabled: true",
          "  content_moderation:\n    enabled: true\n    threshold: 0.4",
        ),
    );
    expect(parse(after).guardrails).toMatchObject({
      llm: { threshold: 0.7123 },
      vector: { threshold: 0.8 },
      content_moderation: { threshold: 0.4 },
    });
  });

  it("writes into an empty flow mapping, and refuses what it cannot place", () => {
    expect(setThresholds("p.yaml", "guardrails:\n  llm: {}\n", { llm: 0.6 })).toBe(
      "guardrails:\n  llm: { threshold: 0.6 }\n",
    );
    expect(() => setThresholds("p.yaml", "guardrails: { llm: { enabled: true } }\n", { llm: 0.6 })).toThrow(
      "p.yaml: cannot place guardrails.llm.threshold; set it by hand to 0.6",
    );
  });
});
