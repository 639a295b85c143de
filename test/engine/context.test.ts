import { describe, expect, it } from "vitest";
import type { Profile } from "../../src/config/profile.js";
import { parseProfile } from "../../src/config/profile.js";
import { compileProfile } from "../../src/engine/compile.js";
import { completedByMessage, contextBoundary } from "../../src/engine/context.js";
import { createEngine } from "../../src/engine/engine.js";
import { builtinGuardrails as registry } from "../../src/guardrails/registry.js";
import type { Finding } from "../../src/guardrails/types.js";
import { cleanText } from "../../src/text/normalize.js";
import { reported, SPLIT_CASES, STREAM_PROFILE, splits } from "../helpers/split-cases.js";

const parsed = parseProfile(STREAM_PROFILE, { file: "stream.yaml", stem: "stream" }, registry);
if ("problems" in parsed) throw new Error(parsed.problems.join("\n"));
const compiled = await compileProfile(parsed as Profile, registry);
const engine = createEngine({ registry });
const output = (message: string, context?: string) =>
  engine.check("output", message, compiled, undefined, context === undefined ? {} : { context });

describe("contextBoundary", () => {
  it.each([
    ["hello", "hello", 5],
    ["hello ", "hello world", 5],
    ["  ", "world", 0],
    ["caf", "café", 3],
    ["cafe", "café", 3], // a combining accent that opens the message makes the "é" new
    ["a\u{1F600}", "a\u{1F601}", 1],
  ])("%j in %j → %i", (context, combined, expected) => {
    expect(contextBoundary(cleanText(context), cleanText(combined))).toBe(expected);
  });
});

describe("completedByMessage", () => {
  const finding = (spans: Finding["spans"], matched: string[]): Finding => ({
    flagged: true,
    score: 1,
    matched,
    spans,
  });
  const none = async () => undefined;

  it("drops what ends in the context and keeps the guardrail's order and duplicates", async () => {
    const spans = [
      { start: 0, end: 4, label: "b" },
      { start: 12, end: 15, label: "a" },
      { start: 16, end: 18, label: "A" },
    ];
    const kept = await completedByMessage(finding(spans, ["a", "A", "b"]), 10, none);
    expect(kept).toMatchObject({ flagged: true, matched: ["a", "A"], score: 1 });
  });

  it("drops a match across the boundary that the context alone already had, same label and start", async () => {
    const across = finding([{ start: 5, end: 20, label: "EMAIL" }], ["EMAIL"]);
    const alone = async (from: number) => {
      expect(from).toBe(5);
      return finding([{ start: 5, end: 10, label: "EMAIL" }], ["EMAIL"]);
    };
    expect(await completedByMessage(across, 10, alone)).toMatchObject({
      flagged: false,
      matched: [],
      score: 0,
    });
    const other = async () => finding([{ start: 5, end: 10, label: "PHONE" }], ["PHONE"]);
    expect((await completedByMessage(across, 10, other)).flagged).toBe(true);
  });

  it("reports a finding whose spans were cut as it is", async () => {
    const cut = { ...finding([], ["a"]), spansCut: true };
    expect(await completedByMessage(cut, 10, none)).toBe(cut);
  });
});

describe("engine: output-check with context", () => {
  it.each(SPLIT_CASES)("reports $label once wherever $text is split", async ({ text, guardrail, label }) => {
    expect(reported((await output(text)).body.checks[guardrail], label)).toBe(1);
    for (const [first, second] of splits(text)) {
      const one = (await output(first)).body.checks[guardrail];
      const two = (await output(second, first)).body.checks[guardrail];
      expect({ first, count: reported(one, label) + reported(two, label) }).toEqual({ first, count: 1 });
    }
  });

  it("does not report a match wholly inside the context again", async () => {
    const { body } = await output(" Thanks.", "Mail jane.doe@example.com, call +1 202-555-0143, ORD-1234.");
    expect(body.injection_detected).toBe(false);
    expect(body.checks.pii).toEqual({ enabled: true, detected: false, entities: [] });
    expect(body.checks.regex).toEqual({ enabled: true, detected: false, matched: [] });
  });

  it("reports a new match after a context full of old ones", async () => {
    const context = "jane@example.com ".repeat(150);
    const { body } = await output("or bob@example.org", context);
    expect(body.checks.pii).toEqual({ enabled: true, detected: true, entities: ["EMAIL_ADDRESS"] });
  });

  it("without context, or with an empty one, answers as before", async () => {
    const text = "Mail jane.doe@example.com or ORD-1234";
    const strip = (o: Awaited<ReturnType<typeof output>>) => ({ ...o.body, execution_time: 0 });
    expect(strip(await output(text, ""))).toEqual(strip(await output(text)));
  });
});
