import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { words } from "../../../src/guardrails/system-prompt-protection/detector/tokens.js";
import * as answers from "../../../training/system-prompt-protection/templates-answers.js";
import * as leaks from "../../../training/system-prompt-protection/templates-leak.js";
import * as refusals from "../../../training/system-prompt-protection/templates-refusals.js";

const root = join(import.meta.dirname, "../../..");
const rows = readFileSync(join(root, "datasets/leakage/non-leak-responses.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { id: string; text: string; prompt: string });

const shingles = (text: string, n = 5) => {
  const w = words(text.replace(/\{\w+\}/g, " "));
  return new Set(w.slice(0, Math.max(0, w.length - n + 1)).map((_, i) => w.slice(i, i + n).join(" ")));
};

describe("the written non-leak set (datasets/leakage/non-leak-responses.jsonl)", () => {
  it("pairs every response with the extraction attempt it answers", () => {
    for (const r of rows) expect(r.prompt?.trim().length, r.id).toBeGreaterThan(0);
  });

  it("shares no five-word run with the generator's templates, so it measures unseen phrasings", () => {
    const templates = [...Object.values(answers), ...Object.values(leaks), ...Object.values(refusals)].flat();
    const seen = new Set(templates.flatMap((t) => [...shingles(t)]));
    const shared = rows.filter((r) => [...shingles(r.text)].some((s) => seen.has(s))).map((r) => r.id);
    expect(shared).toEqual([]);
  });
});
