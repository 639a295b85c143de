import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bioSpans, loadWnut, readConll } from "../../../training/pii/data.js";

const dir = mkdtempSync(join(tmpdir(), "conll-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CONLL = [
  "Ada\tB-person",
  "Lovelace\tI-person",
  "met\tO",
  "Babbage\tI-person",
  "in\tO",
  "London\tB-location",
  "",
  "",
  "iPhone\tB-product",
  "sales\tO",
  "",
].join("\n");
const path = join(dir, "sample.conll");
writeFileSync(path, CONLL);

describe("readConll", () => {
  it("joins each text's tokens with single spaces and keeps every token's offsets and tag", () => {
    const texts = readConll(path);
    expect(texts.map((t) => t.text)).toEqual(["Ada Lovelace met Babbage in London", "iPhone sales"]);
    expect(texts[0]?.tokens[3]).toEqual({ start: 17, end: 24, tag: "I-person" });
  });
});

describe("bioSpans", () => {
  const tokens = readConll(path)[0]?.tokens ?? [];
  const label = (type: string) => (type ? type.toUpperCase() : undefined);

  it("with `adjacent`, starts a new span at an I- tag after an untagged token (the trainer's reading)", () => {
    expect(bioSpans(tokens, label, true)).toEqual([
      { start: 0, end: 12, label: "PERSON" },
      { start: 17, end: 24, label: "PERSON" },
      { start: 28, end: 34, label: "LOCATION" },
    ]);
  });

  it("without it, extends the last span of the same label (the evaluation's reading)", () => {
    expect(bioSpans(tokens, label, false)).toEqual([
      { start: 0, end: 24, label: "PERSON" },
      { start: 28, end: 34, label: "LOCATION" },
    ]);
  });
});

describe("loadWnut", () => {
  it("keeps the tagger's entity types only", () => {
    expect(loadWnut(path).map((t) => t.spans.map((s) => s.label))).toEqual([
      ["PERSON", "PERSON", "LOCATION"],
      [],
    ]);
  });
});
