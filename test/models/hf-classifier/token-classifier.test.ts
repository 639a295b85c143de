import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  alignTokens,
  type HfTokenClassifier,
  loadHfTokenClassifier,
} from "../../../src/models/hf-classifier/token-classifier.js";
import { buildTinyModel, refuseNetwork } from "./tiny-model.js";

describe("loadHfTokenClassifier on a tiny local export", () => {
  let dir: string;
  let tagger: HfTokenClassifier;
  beforeAll(async () => {
    refuseNetwork();
    dir = await buildTinyModel({
      task: "token-classification",
      labels: ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"],
    });
    tagger = await loadHfTokenClassifier({ dir });
  });
  afterAll(async () => {
    await tagger?.close();
    vi.unstubAllGlobals();
    await rm(dir, { recursive: true, force: true });
  });

  it("names the entity types its labels tag", () => {
    expect(tagger.entityLabels).toEqual(["PER", "LOC"]);
  });

  it("joins B- and I- tokens into entities with their places in the text", async () => {
    const text = "Alice Smith lives in Paris.";
    const found = await tagger.entities(text);
    expect(found.map((e) => [e.label, text.slice(e.start, e.end)])).toEqual([
      ["PER", "Alice Smith"],
      ["LOC", "Paris"],
    ]);
    for (const e of found) expect(e.score).toBeGreaterThan(0.9);
  });

  it("finds nothing in a text without entities, and keeps offsets past the first window", async () => {
    expect(await tagger.entities("What is the weather today?")).toEqual([]);
    const long = `${"What is the weather today? ".repeat(200)}Alice lives in Paris.`;
    const found = await tagger.entities(long);
    expect(found.map((e) => long.slice(e.start, e.end))).toEqual(["Alice", "Paris"]);
  });
});

describe("alignTokens", () => {
  it("places WordPiece, SentencePiece and BPE tokens, and skips what it cannot find", () => {
    expect(alignTokens("Playing  ball", ["play", "##ing", "ball"])).toEqual([
      [0, 4],
      [4, 7],
      [9, 13],
    ]);
    expect(alignTokens("New York", ["▁New", "▁York"])).toEqual([
      [0, 3],
      [4, 8],
    ]);
    expect(alignTokens("a ☃ b", ["a", "[UNK]", "b"])).toEqual([[0, 1], undefined, [4, 5]]);
  });
});
