/**
 * The project's own posts (datasets/moderation/README.md), each set a source of its own:
 * - `german-posts-*.jsonl` (`written-german`): offensive German posts and, on the same topics and in
 *   the same register, posts that are not. Every other toxic source is English, and the n-gram
 *   heads learn toxicity from words: held out, GermEval's German tweets were found 0.6% of the time.
 * - `english-posts-*.jsonl` (`written-english`): pairs of English posts on one topic and target,
 *   one abusive and one that only mentions the group, the slur or the abuse (counter-speech,
 *   reporting abuse received, identity words used neutrally, violent words in harmless senses).
 * Written by writers who never saw `../shared/datasets`, so holding a public source out still
 * measures text the model has never seen.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ModerationCategory } from "../../src/guardrails/content-moderation/model/categories.js";
import { readJsonl } from "../lib/jsonl.js";
import { stripTwitter } from "./data-toxicity.js";
import { dedupe, type Example } from "./example.js";

export const WRITTEN_POSTS = "written-german";
export const WRITTEN_ENGLISH_POSTS = "written-english";

/** File name patterns and the source each set is. */
const POST_SETS: readonly (readonly [RegExp, string])[] = [
  [/^german-posts-.*\.jsonl$/, WRITTEN_POSTS],
  [/^english-posts-.*\.jsonl$/, WRITTEN_ENGLISH_POSTS],
];

interface Post {
  text: string;
  label: 0 | 1;
  category: ModerationCategory | null;
  topic?: string;
}

/** Every set's files, in name order; `@user` and the like stripped as GermEval's are. */
export function loadWrittenPosts(root: string): Example[] {
  const dir = join(root, "datasets/moderation");
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir).sort();
  const out = POST_SETS.flatMap(([pattern, source]) =>
    names
      .filter((f) => pattern.test(f))
      .flatMap((file) =>
        readJsonl<Post>(join(dir, file)).map((p): Example => {
          const text = stripTwitter(p.text);
          if (p.label !== 1) return { text, label: 0, source };
          return { text, label: 1, signal: "toxic", category: p.category ?? "HARASSMENT", source };
        }),
      ),
  );
  return dedupe(out.filter((e) => e.text.length >= 8));
}
