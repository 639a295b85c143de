/**
 * The project's own German posts (datasets/moderation/german-posts-*.jsonl): offensive posts and,
 * on the same topics and in the same register, posts that are not (datasets/moderation/README.md).
 * Every other toxic source is English, and the n-gram heads learn toxicity from words: held out,
 * GermEval's German tweets were found 0.6% of the time. Written by writers who never saw
 * GermEval, so holding GermEval out still measures text the model has never seen.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ModerationCategory } from "../../src/guardrails/content-moderation/model/categories.js";
import { readJsonl } from "../lib/jsonl.js";
import { stripTwitter } from "./data-toxicity.js";
import { dedupe, type Example } from "./example.js";

export const WRITTEN_POSTS = "written-german";

interface Post {
  text: string;
  label: 0 | 1;
  category: ModerationCategory | null;
  topic?: string;
}

/** Every german-posts-*.jsonl file, in name order; `@user` and the like stripped as GermEval's are. */
export function loadWrittenPosts(root: string): Example[] {
  const dir = join(root, "datasets/moderation");
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => /^german-posts-.*\.jsonl$/.test(f))
    .sort();
  const out = files.flatMap((file) =>
    readJsonl<Post>(join(dir, file)).map((p): Example => {
      const text = stripTwitter(p.text);
      if (p.label !== 1) return { text, label: 0, source: WRITTEN_POSTS };
      return { text, label: 1, signal: "toxic", category: p.category ?? "HARASSMENT", source: WRITTEN_POSTS };
    }),
  );
  return dedupe(out.filter((e) => e.text.length >= 8));
}
