import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Paths from the repository root: the known-attack corpus ships beside the vector index built from it.
const root = join(import.meta.dirname, "../..");

interface Row {
  id: string;
  text: string;
  label: 0 | 1;
  technique?: string;
  kind?: string;
  lang: string;
  [key: string]: unknown;
}

interface Spec {
  file: string;
  label: 0 | 1;
  /** The field that names the row's category: attacks use `technique`, benign rows `kind`. */
  category: "technique" | "kind";
  minRows: number;
  minPerCategory?: number;
  minNonEnglish?: number;
  words?: [number, number];
  /** More string fields every row must carry (the user's prompt, the system prompt a leak discloses). */
  fields?: string[];
}

const specs: Spec[] = [
  {
    file: "models/vector/known-injections.jsonl",
    label: 1,
    category: "technique",
    minRows: 600,
    minPerCategory: 40,
    minNonEnglish: 120,
  },
  {
    file: "datasets/benign/hard-negatives.jsonl",
    label: 0,
    category: "kind",
    minRows: 600,
    minNonEnglish: 120,
  },
  {
    file: "datasets/benign/long-documents.jsonl",
    label: 0,
    category: "kind",
    minRows: 200,
    words: [150, 800],
  },
  { file: "datasets/attacks/indirect-carriers.jsonl", label: 0, category: "kind", minRows: 150 },
  { file: "datasets/attacks/indirect-payloads.jsonl", label: 1, category: "technique", minRows: 150 },
  { file: "datasets/leakage/non-leak-responses.jsonl", label: 0, category: "kind", minRows: 80 },
  {
    file: "datasets/prompts/system-prompts.jsonl",
    label: 0,
    category: "kind",
    minRows: 240,
    minPerCategory: 30,
  },
  {
    file: "datasets/prompts/app-system-prompts.jsonl",
    label: 0,
    category: "kind",
    minRows: 260,
    minPerCategory: 40,
  },
  {
    file: "datasets/prompts/system-prompts-long.jsonl",
    label: 0,
    category: "kind",
    minRows: 260,
    minPerCategory: 30,
  },
  {
    file: "datasets/prompts/role-setups.jsonl",
    label: 0,
    category: "kind",
    minRows: 260,
    minPerCategory: 20,
  },
  {
    file: "datasets/leakage/talk-responses.jsonl",
    label: 0,
    category: "kind",
    minRows: 200,
    minPerCategory: 20,
    fields: ["prompt"],
  },
  {
    file: "datasets/leakage/instruction-answers.jsonl",
    label: 0,
    category: "kind",
    minRows: 300,
    minPerCategory: 28,
    fields: ["prompt"],
  },
  {
    file: "datasets/leakage/leak-responses.jsonl",
    label: 1,
    category: "kind",
    minRows: 120,
    minPerCategory: 12,
    fields: ["prompt", "system_prompt"],
  },
  // Written 2026-11-30 to train system_prompt_protection (its model card, issue 22).
  {
    file: "datasets/leakage/leak-train.jsonl",
    label: 1,
    category: "kind",
    minRows: 330,
    minPerCategory: 22,
    fields: ["prompt", "system_prompt"],
  },
  {
    file: "datasets/leakage/talk-train.jsonl",
    label: 0,
    category: "kind",
    minRows: 309,
    minPerCategory: 14,
    fields: ["prompt"],
  },
  // Written for a measured candidate (training/README.md, round 5) and kept out of every pool.
  {
    file: "datasets/candidates/direct-attacks-2.jsonl",
    label: 1,
    category: "technique",
    minRows: 240,
    minPerCategory: 120,
  },
  {
    file: "datasets/candidates/indirect-emails.jsonl",
    label: 1,
    category: "technique",
    minRows: 120,
    fields: ["payload"],
  },
  { file: "datasets/candidates/reader-emails.jsonl", label: 0, category: "kind", minRows: 120 },
  // Written 2026-11-30 for a measured `llm` candidate in 25 languages (training/README.md, round 5).
  {
    file: "datasets/candidates/multilingual-attacks.jsonl",
    label: 1,
    category: "technique",
    minRows: 520,
    minPerCategory: 50,
    minNonEnglish: 520,
  },
  {
    file: "datasets/candidates/multilingual-prompts.jsonl",
    label: 0,
    category: "kind",
    minRows: 520,
    minPerCategory: 70,
    minNonEnglish: 520,
  },
];

/** The languages the attack corpus and the hard negatives each cover. */
const LANGS = new Set([
  "en",
  "de",
  "fr",
  "es",
  "it",
  "pt",
  "nl",
  "pl",
  "ru",
  "zh",
  "ja",
  "ko",
  "ar",
  "hi",
  "tr",
]);
/**
 * Any row's language: the covered ones, Swedish, Czech and Finnish (leakage and prompt sets), and
 * the other languages of the multilingual candidate sets.
 */
const VALID_LANGS = new Set([
  ...LANGS,
  ...["sv", "cs", "fi"],
  ...["uk", "fa", "bn", "ur", "ta", "mr", "sw", "vi", "id", "th", "tl"],
]);
const MAX_CHARS = 20_000;

const normalise = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

function load(file: string): Row[] {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const rows: Row[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      rows.push(JSON.parse(line) as Row);
    } catch (error) {
      throw new Error(`${file}:${i + 1}: invalid JSON (${(error as Error).message})`);
    }
  });
  return rows;
}

const loaded = new Map(specs.map((spec) => [spec.file, load(spec.file)]));
const rowsOf = (file: string): Row[] => loaded.get(file) ?? [];

function countBy(rows: Row[], key: (row: Row) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  return counts;
}

describe.each(specs)("$file", (spec) => {
  const rows = rowsOf(spec.file);

  it("parses and has the required fields on every row", () => {
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(typeof row.id, `id of ${JSON.stringify(row).slice(0, 80)}`).toBe("string");
      expect(typeof row.text, row.id).toBe("string");
      expect(row.text.trim().length, row.id).toBeGreaterThan(0);
      expect(typeof row[spec.category], `${row.id} ${spec.category}`).toBe("string");
      expect(VALID_LANGS.has(row.lang), `${row.id} lang ${row.lang}`).toBe(true);
      for (const field of spec.fields ?? []) {
        expect(typeof row[field], `${row.id} ${field}`).toBe("string");
        expect(String(row[field]).trim().length, `${row.id} ${field}`).toBeGreaterThan(0);
      }
    }
  });

  it(`labels every row ${spec.label}`, () => {
    const wrong = rows.filter((row) => row.label !== spec.label).map((row) => row.id);
    expect(wrong).toEqual([]);
  });

  it("has unique ids", () => {
    const dup = [...countBy(rows, (r) => r.id)].filter(([, n]) => n > 1).map(([id]) => id);
    expect(dup).toEqual([]);
  });

  it("has no duplicate texts (ignoring case and whitespace)", () => {
    const dup = [...countBy(rows, (r) => normalise(r.text))].filter(([, n]) => n > 1).map(([t]) => t);
    expect(dup).toEqual([]);
  });

  it(`has no row over ${MAX_CHARS} characters`, () => {
    const long = rows.filter((row) => row.text.length > MAX_CHARS).map((row) => row.id);
    expect(long).toEqual([]);
  });

  it(`has at least ${spec.minRows} rows`, () => {
    expect(rows.length).toBeGreaterThanOrEqual(spec.minRows);
  });

  if (spec.minPerCategory !== undefined) {
    const min = spec.minPerCategory;
    it(`has at least ${min} rows for every ${spec.category}`, () => {
      const small = [...countBy(rows, (r) => String(r[spec.category]))].filter(([, n]) => n < min);
      expect(small).toEqual([]);
    });
  }

  if (spec.minNonEnglish !== undefined) {
    const min = spec.minNonEnglish;
    it(`has at least ${min} non-English rows, covering all ${LANGS.size - 1} other languages`, () => {
      const other = rows.filter((row) => row.lang !== "en");
      expect(other.length).toBeGreaterThanOrEqual(min);
      const covered = new Set(other.map((row) => row.lang));
      expect([...LANGS].filter((lang) => lang !== "en" && !covered.has(lang))).toEqual([]);
    });
  }

  if (spec.words !== undefined) {
    const [lo, hi] = spec.words;
    it(`keeps every document between ${lo} and ${hi} words`, () => {
      const out = rows
        .map((row) => ({ id: row.id, words: row.text.split(/\s+/).filter(Boolean).length }))
        .filter(({ words }) => words < lo || words > hi);
      expect(out).toEqual([]);
    });
  }
});

describe("datasets, across files", () => {
  const all = specs.flatMap((spec) => rowsOf(spec.file).map((row) => ({ ...row, file: spec.file })));

  it("has ids that are unique across every file", () => {
    const dup = [...countBy(all, (r) => r.id)].filter(([, n]) => n > 1).map(([id]) => id);
    expect(dup).toEqual([]);
  });

  it("never has the same text in two files (a text cannot be both an attack and benign)", () => {
    const dup = [...countBy(all, (r) => normalise(r.text))].filter(([, n]) => n > 1).map(([t]) => t);
    expect(dup).toEqual([]);
  });

  it("covers every attack technique the corpus promises", () => {
    const techniques = new Set(rowsOf("models/vector/known-injections.jsonl").map((r) => r.technique));
    for (const t of [
      "instruction_override",
      "roleplay_persona",
      "fake_system_message",
      "delimiter_markup",
      "prompt_extraction",
      "payload_splitting",
      "encoding",
      "translation_trick",
      "multilingual",
      "short_hijack",
      "goal_hijack",
      "indirect_injection",
      "refusal_suppression",
      "fiction_wrapper",
      "many_shot",
      "context_flooding",
    ]) {
      expect(techniques.has(t), t).toBe(true);
    }
  });
});
