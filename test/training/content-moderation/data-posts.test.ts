// The project's posts (training/content-moderation/data-posts.ts): read from every
// german-posts-*.jsonl and english-posts-*.jsonl file, cleaned as GermEval's tweets are, each
// offensive post a toxic row, each set a source of its own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  loadWrittenPosts,
  WRITTEN_ENGLISH_POSTS,
  WRITTEN_POSTS,
} from "../../../training/content-moderation/data-posts.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function rootWith(files: Record<string, object[]>): string {
  const root = mkdtempSync(join(tmpdir(), "posts-"));
  roots.push(root);
  mkdirSync(join(root, "datasets/moderation"), { recursive: true });
  for (const [name, rows] of Object.entries(files))
    writeFileSync(
      join(root, "datasets/moderation", name),
      rows.map((r) => `${JSON.stringify(r)}\n`).join(""),
    );
  return root;
}

describe("loadWrittenPosts", () => {
  it("reads every german-posts file: offensive posts toxic with their category, the rest safe", () => {
    const root = rootWith({
      "german-posts-a.jsonl": [
        { text: "@user du bist echt ein kompletter Vollidiot", label: 1, category: "HARASSMENT", topic: "x" },
        { text: "Die Bahn hat schon wieder Verspätung, nervig", label: 0, category: null, topic: "x" },
      ],
      "german-posts-b.jsonl": [
        { text: "Diese Leute sollen alle verschwinden!!", label: 1, category: "HATE" },
      ],
      "other.jsonl": [{ text: "not a posts file, never read", label: 1, category: "HATE" }],
    });
    expect(loadWrittenPosts(root)).toEqual([
      {
        text: "du bist echt ein kompletter Vollidiot",
        label: 1,
        signal: "toxic",
        category: "HARASSMENT",
        source: WRITTEN_POSTS,
      },
      { text: "Die Bahn hat schon wieder Verspätung, nervig", label: 0, source: WRITTEN_POSTS },
      {
        text: "Diese Leute sollen alle verschwinden!!",
        label: 1,
        signal: "toxic",
        category: "HATE",
        source: WRITTEN_POSTS,
      },
    ]);
  });

  it("drops duplicates and texts too short once the mentions are stripped", () => {
    const root = rootWith({
      "german-posts-a.jsonl": [
        { text: "Was für ein Scheißwetter heute", label: 0, category: null },
        { text: "was für ein   scheißwetter heute", label: 0, category: null },
        { text: "@user @user lol", label: 0, category: null },
      ],
    });
    expect(loadWrittenPosts(root).map((e) => e.text)).toEqual(["Was für ein Scheißwetter heute"]);
  });

  it("reads the English posts as a source of their own, after the German ones", () => {
    const root = rootWith({
      "english-posts-a.jsonl": [
        {
          text: "someone called my sister a slur on the bus and nobody said a word",
          label: 0,
          category: null,
        },
        { text: "people like you should be run out of this town", label: 1, category: "HATE" },
      ],
      "german-posts-a.jsonl": [{ text: "Die Bahn hat schon wieder Verspätung", label: 0, category: null }],
    });
    expect(loadWrittenPosts(root).map((e) => [e.source, e.label, e.signal])).toEqual([
      [WRITTEN_POSTS, 0, undefined],
      [WRITTEN_ENGLISH_POSTS, 0, undefined],
      [WRITTEN_ENGLISH_POSTS, 1, "toxic"],
    ]);
  });

  it("is empty without the folder", () => {
    expect(loadWrittenPosts(join(tmpdir(), "no-such-root-for-posts"))).toEqual([]);
  });
});
