import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { editProfileText, type YamlEdit } from "../../src/config/profile-edit.js";

const profile = [
  "# top comment",
  "name: support   # the name",
  "default: true",
  "guardrails:",
  "  keyword: { enabled: true, keywords: [ignore previous instructions, a really long phrase that a printer would wrap somewhere past eighty columns and beyond] }",
  "  regex:",
  "    enabled: true",
  "    patterns:",
  "      - name: ticket   # why",
  "        pattern: \\bTICKET-[0-9]{5}\\b",
  "        flags: i",
  "",
  "  llm:",
  "    enabled: true   # aligned comment",
  "    threshold: 0.50",
  "  system_prompt_protection:",
  "    enabled: false",
  "    system_prompt: |",
  "      You are a bot.",
  "      Be nice.",
  "    canaries:",
  "      - cnry-1",
  "  # trailing comment",
  "",
].join("\n");

const edit = (...edits: YamlEdit[]) => editProfileText("p.yaml", profile, edits);
const at = (...path: string[]) => ({ path: ["guardrails", ...path] });

/** Each case: the edits, and the one textual change the result must be of the original. */
const cases: { what: string; edits: YamlEdit[]; from: string; to: string }[] = [
  {
    what: "a guardrail switched off keeps its aligned comment",
    edits: [{ ...at("llm", "enabled"), value: false }],
    from: "enabled: true   # aligned comment",
    to: "enabled: false   # aligned comment",
  },
  {
    what: "a threshold removed takes its line with it",
    edits: [{ ...at("llm", "threshold"), value: undefined }],
    from: "    threshold: 0.50\n",
    to: "",
  },
  {
    what: "a flow keyword list stays a flow list, quoting what needs it",
    edits: [{ ...at("keyword", "keywords"), value: ["a", "b: c"] }],
    from: "[ignore previous instructions, a really long phrase that a printer would wrap somewhere past eighty columns and beyond]",
    to: '[a, "b: c"]',
  },
  {
    what: "a flow list emptied",
    edits: [{ ...at("keyword", "keywords"), value: [] }],
    from: "[ignore previous instructions, a really long phrase that a printer would wrap somewhere past eighty columns and beyond]",
    to: "[]",
  },
  {
    what: "block regex rules replaced as a block list, the blank line after kept",
    edits: [
      {
        ...at("regex", "patterns"),
        value: [
          { name: "t", pattern: "\\bT-[0-9]+" },
          { pattern: "x", flags: "im" },
        ],
      },
    ],
    from: "      - name: ticket   # why\n        pattern: \\bTICKET-[0-9]{5}\\b\n        flags: i\n",
    to: "      - name: t\n        pattern: \\bT-[0-9]+\n      - pattern: x\n        flags: im\n",
  },
  {
    what: "a block literal system prompt rewritten as one",
    edits: [{ ...at("system_prompt_protection", "system_prompt"), value: "New.\nLine two.\n" }],
    from: "      You are a bot.\n      Be nice.\n",
    to: "      New.\n      Line two.\n",
  },
  {
    what: "a block list of canaries stays a block list",
    edits: [{ ...at("system_prompt_protection", "canaries"), value: ["c1", "c2"] }],
    from: "      - cnry-1\n",
    to: "      - c1\n      - c2\n",
  },
  {
    what: "a guardrail the profile did not list is added before the trailing comment, its words on one line",
    edits: [
      { ...at("pii", "enabled"), value: true },
      { ...at("pii", "entities"), value: ["EMAIL_ADDRESS", "US_SSN"] },
    ],
    from: "      - cnry-1\n",
    to: "      - cnry-1\n  pii:\n    enabled: true\n    entities: [EMAIL_ADDRESS, US_SSN]\n",
  },
  {
    what: "the default marker cleared",
    edits: [{ path: ["default"], value: false }],
    from: "default: true",
    to: "default: false",
  },
  {
    what: "a key added to a flow mapping",
    edits: [{ ...at("keyword", "match"), value: "substring" }],
    from: "beyond] }",
    to: "beyond], match: substring }",
  },
  {
    what: "a key removed from a flow mapping",
    edits: [{ ...at("keyword", "enabled"), value: undefined }],
    from: "keyword: { enabled: true, keywords:",
    to: "keyword: { keywords:",
  },
];

describe("editProfileText keeps the file byte for byte outside the values written", () => {
  for (const c of cases) {
    it(c.what, () => {
      const after = edit(...c.edits);
      expect(profile).toContain(c.from);
      expect(after).toBe(profile.replace(c.from, c.to));
      // And the result reads back as intended.
      const doc = parse(after) as Record<string, unknown>;
      for (const e of c.edits) {
        const value = e.path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], doc);
        expect(value).toEqual(e.value);
      }
    });
  }

  it("writes a value already there as a no-op", () => {
    expect(edit({ ...at("llm", "enabled"), value: true })).toBe(profile);
  });

  it("removing a block mapping's last key leaves {} so the profile still loads", () => {
    const text = "guardrails:\n  llm:\n    threshold: 0.5\n  vector: { enabled: true }\n";
    expect(editProfileText("p.yaml", text, [{ ...at("llm", "threshold"), value: undefined }])).toBe(
      "guardrails:\n  llm: {}\n  vector: { enabled: true }\n",
    );
  });

  it("adds to an empty file and to a file without guardrails", () => {
    expect(editProfileText("p.yaml", "", [{ ...at("llm", "enabled"), value: true }])).toBe(
      "guardrails:\n  llm:\n    enabled: true\n",
    );
    expect(editProfileText("p.yaml", "name: x  # n\n", [{ path: ["default"], value: true }])).toBe(
      "name: x  # n\ndefault: true\n",
    );
  });

  it("refuses invalid YAML and what it cannot place, naming the file", () => {
    expect(() => editProfileText("p.yaml", "a: [", [])).toThrow(/^p\.yaml: invalid YAML/);
    expect(() =>
      editProfileText("p.yaml", "guardrails: { llm: { enabled: true } }\n", [
        { ...at("llm", "threshold"), value: 0.6 },
      ]),
    ).toThrow("p.yaml: cannot place guardrails.llm.threshold; set it by hand to 0.6");
  });
  it("fills an empty value after its colon, keeps a block list's indentation and a CRLF file's line ends", () => {
    const g = (text: string) => `guardrails:\n${text}`;
    expect(
      editProfileText("p.yaml", g("  llm:\n    threshold:\n"), [{ ...at("llm", "threshold"), value: 0.5 }]),
    ).toBe(g("  llm:\n    threshold: 0.5\n"));
    expect(
      editProfileText("p.yaml", g("  keyword:\n    keywords:\n    - a\n    - b\n    enabled: true\n"), [
        { ...at("keyword", "keywords"), value: ["c"] },
      ]),
    ).toBe(g("  keyword:\n    keywords:\n    - c\n    enabled: true\n"));
    const crlf = "name: x\r\nguardrails:\r\n  llm:\r\n    enabled: true\r\n";
    expect(editProfileText("p.yaml", crlf, [{ ...at("llm", "threshold"), value: 0.5 }])).toBe(
      "name: x\r\nguardrails:\r\n  llm:\r\n    enabled: true\r\n    threshold: 0.5\r\n",
    );
  });
});
