import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Run with `npm run test:training-data`: no shipped model reads this folder, so `npm test` skips it.
const repo = join(import.meta.dirname, "../..");
const folder = join(import.meta.dirname, "injection-broad");
// Every other project-written text file, whichever folder it lives in now.
const others = [
  join(repo, "datasets/attacks"),
  join(repo, "datasets/benign"),
  join(import.meta.dirname, "injection-extra"),
];

interface Row {
  text: string;
  label: number;
  technique: string;
  kind: string;
  lang: string;
}

// Template families of the llm split's calibration and test sides (see training/data/injection-broad/README.md):
// this folder is training-only, so it must not add rows to the techniques those splits judge.
const HELD_BACK = [
  "exfiltrate",
  "insert_link",
  "hide_from_user",
  "memory_poisoning",
  "persuasion",
  "roleplay_persona",
  "short_hijack",
  "context_flooding",
  "instruction_override",
  "goal_hijack",
  "fake_system_message",
  "encoding",
  "payload_splitting",
  "multilingual",
];

// Which label and kind each file's rows must have, from its name.
const EXPECTED: [RegExp, number, string][] = [
  [/^attacks/, 1, "prompt"],
  [/^payloads/, 1, "payload"],
  [/^hard-negatives/, 0, "hard"],
  [/^benign-documents/, 0, "long"],
];

const files = readdirSync(folder).filter((f) => f.endsWith(".jsonl"));
const rows = files.flatMap((file) =>
  readFileSync(join(folder, file), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line, i) => ({ file, line: i + 1, row: JSON.parse(line) as Row })),
);
const normalise = (text: string) => text.replace(/\s+/gu, " ").trim().toLowerCase();

describe("training/data/injection-broad", () => {
  it("has a label and kind per file, and the fields the extra-data loader reads", () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const { file, line, row } of rows) {
      const where = `${file}:${line}`;
      expect(Object.keys(row).sort(), where).toEqual(["kind", "label", "lang", "technique", "text"]);
      const expected = EXPECTED.find(([pattern]) => pattern.test(file));
      expect(expected, `${file}: no rule for this file name`).toBeDefined();
      expect([row.label, row.kind], where).toEqual([expected?.[1], expected?.[2]]);
      expect(row.text.trim().length, where).toBeGreaterThan(0);
      expect(row.lang, where).toMatch(/^[a-z]{2}$/u);
    }
  });

  it("adds nothing to the techniques the calibration and test splits judge", () => {
    const used = new Set(rows.map(({ row }) => row.technique));
    expect(HELD_BACK.filter((t) => used.has(t))).toEqual([]);
  });

  it("has no text twice, here or in the project's other data sets", () => {
    const seen = new Map<string, string>();
    const files = others.flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => join(dir, f)),
    );
    files.push(join(repo, "models/vector/known-injections.jsonl"));
    for (const file of files)
      for (const line of readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim()))
        seen.set(normalise((JSON.parse(line) as Row).text), file.slice(repo.length + 1));
    const dup: string[] = [];
    for (const { file, line, row } of rows) {
      const key = normalise(row.text);
      const other = seen.get(key);
      if (other) dup.push(`${file}:${line} = ${other}`);
      seen.set(key, file);
    }
    expect(dup).toEqual([]);
  });

  it("links to no real site: only example domains, private addresses and placeholders", () => {
    const hosts = rows.flatMap(({ row }) =>
      [...row.text.matchAll(/https?:\/\/([\w.-]+)/gu)].map((m) => m[1] as string),
    );
    const invented = (host: string) =>
      host.split(".").includes("example") ||
      !host.includes(".") ||
      /^(localhost|127\.|10\.|192\.168\.)/u.test(host);
    expect(hosts.length).toBeGreaterThan(0);
    expect(hosts.filter((h) => !invented(h))).toEqual([]);
  });
});
