import { describe, expect, it } from "vitest";
import { resolveColumns } from "../../src/eval/columns.js";
import { normalizeLabel } from "../../src/eval/labels.js";
import { toEvalRow } from "../../src/eval/rows.js";

describe("normalizeLabel", () => {
  it.each([
    ["1", true],
    ["0", false],
    ["true", true],
    ["FALSE", false],
    ["yes", true],
    ["No", false],
    ["injection", true],
    ["benign", false],
    ["unsafe", true],
    ["safe", false],
    ["flag", true],
    ["allow", false],
    [1, true],
    [0, false],
    [true, true],
    [false, false],
    ["", null],
    [null, null],
    [undefined, null],
  ])("%j → %j", (value, expected) => {
    expect(normalizeLabel(value)).toEqual({ ok: true, label: expected });
  });

  it.each(["maybe", "2", 0.5, { a: 1 }])("rejects %j and lists the spellings", (value) => {
    const result = normalizeLabel(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/unknown label .*expected 1\/0, true\/false/);
  });
});

describe("resolveColumns", () => {
  it("auto-detects text, label, category and id by well-known names, case-insensitively", () => {
    expect(resolveColumns(["ID", "Prompt", "is_injection", "Category"], {}, "input")).toEqual({
      text: "Prompt",
      label: "is_injection",
      category: "Category",
      id: "ID",
    });
  });

  it("prefers response for the text and prompt for the prompt in output mode", () => {
    expect(resolveColumns(["prompt", "response", "flagged"], {}, "output")).toEqual({
      text: "response",
      prompt: "prompt",
      label: "flagged",
    });
  });

  it("takes the flags over the names", () => {
    expect(
      resolveColumns(["body", "verdict"], { textColumn: "body", labelColumn: "verdict" }, "input"),
    ).toEqual({
      text: "body",
      label: "verdict",
    });
  });

  it("lists the columns found when it cannot decide", () => {
    expect(() => resolveColumns(["body", "verdict"], {}, "input")).toThrow(
      /cannot tell which column holds the prompts: columns found: body, verdict; pass --text-column NAME/,
    );
    expect(() => resolveColumns(["text"], { labelColumn: "gold" }, "input")).toThrow(
      /--label-column "gold" is not a column; columns found: text/,
    );
  });

  it("quotes what it found the way a terminal can take: long names cut, escape codes escaped", () => {
    const names = ["\u001b[2Jbody", "x".repeat(1_000_000), ...Array.from({ length: 30 }, (_, i) => `c${i}`)];
    const message = (() => {
      try {
        resolveColumns(names, {}, "input");
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    })();
    expect(message).toContain(`columns found: \\u001b[2Jbody, ${"x".repeat(60)}…, c0, c1,`);
    expect(message).toContain(", c17, … (32 in all); pass --text-column NAME");
    expect(message.length).toBeLessThan(400);
    expect(normalizeLabel(`\u001b]0;${"y".repeat(500)}`)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^unknown label "\\u001b\]0;y{56}…" \(expected/),
    });
  });
});

describe("toEvalRow", () => {
  const columns = { text: "text", label: "label" };
  const record = (values: Record<string, unknown>) => ({ kind: "record" as const, row: 7, line: 9, values });

  it("names the row of an unknown label or an empty text", () => {
    expect(toEvalRow(record({ text: "hi", label: "maybe" }), columns)).toEqual({
      invalid: { row: 7, line: 9, reason: expect.stringMatching(/column label: unknown label "maybe"/) },
    });
    expect(toEvalRow(record({ text: "  ", label: "1" }), columns)).toEqual({
      invalid: { row: 7, line: 9, reason: "empty text in column text" },
    });
  });

  it("names a missing field, and a text or prompt over the length limit in code points", () => {
    expect(toEvalRow(record({ label: "1" }), columns)).toEqual({
      invalid: { row: 7, line: 9, reason: "missing field text" },
    });
    expect(toEvalRow(record({ text: "😀".repeat(5), label: "1" }), columns, 5)).toMatchObject({
      row: { text: "😀".repeat(5) },
    });
    expect(toEvalRow(record({ text: "abcdef", label: "1" }), columns, 5)).toEqual({
      invalid: {
        row: 7,
        line: 9,
        reason:
          "column text: 6 characters, over the limit of 5 (--max-message-chars; the server refuses such a message)",
      },
    });
    expect(toEvalRow(record({ text: "\ufdfa", label: "1" }), columns, 5)).toMatchObject({
      invalid: {
        reason: expect.stringMatching(/^column text: 18 characters after Unicode normalization \(NFKC\)/),
      },
    });
    const output = { text: "response", prompt: "prompt" };
    expect(toEvalRow(record({ response: "ok", prompt: "abcdef" }), output, 5)).toMatchObject({
      invalid: { reason: expect.stringMatching(/^column prompt: 6 characters, over the limit of 5/) },
    });
  });

  it("keeps an empty label as unlabelled", () => {
    expect(toEvalRow(record({ text: "hi", label: "" }), columns)).toMatchObject({
      row: { label: null, text: "hi" },
    });
  });
});
