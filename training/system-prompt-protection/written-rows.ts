/**
 * Project-written rows as training examples (`--train-written FILE,…`; the bundled model since
 * 2026-11-30): leaks written by hand, each with the system prompt it discloses (`system_prompt`,
 * label 1), and answers that talk about rules, prompts, passwords or codes without disclosing
 * anything (label 0). The generator's templates teach the leak side; these teach what a real leak
 * and real talk look like. The evaluation sets (written-set.ts) are never read here.
 *
 * A written leak's system prompt becomes a prompt of its own (`written/<hash>`), so the settings
 * with a system prompt score it against the prompt it leaks; each row takes the split of its
 * prompt (leaks) or of its text (talk), 60/15/25 as everything else.
 */
import { readJsonl } from "../lib/jsonl.js";
import type { Split } from "./families.js";
import { type LeakExample, splitOf } from "./generate.js";
import { realExample, WRITTEN_SOURCE } from "./real-responses.js";
import { hashString } from "./rng.js";

export interface WrittenRow {
  id: string;
  text: string;
  label: 0 | 1;
  prompt?: string;
  system_prompt?: string;
}

export interface WrittenExamples {
  examples: LeakExample[];
  /** The written leaks' system prompts, by the group id their examples carry. */
  systemPrompts: Map<string, string>;
}

/** Every row of `files`; a leak without the system prompt it discloses is refused. */
export function readWrittenRows(files: readonly string[]): WrittenRow[] {
  return files.flatMap((file) =>
    readJsonl<WrittenRow>(file).map((row) => {
      if (row.label === 1 && !row.system_prompt)
        throw new Error(`${file}: ${row.id} is a leak without its system_prompt`);
      return row;
    }),
  );
}

/** `pairWith[split]`: the system prompts a talk answer of that split may be paired with. */
export function writtenExamples(
  rows: readonly WrittenRow[],
  pairWith: Readonly<Record<Split, readonly string[]>>,
): WrittenExamples {
  const systemPrompts = new Map<string, string>();
  const examples = rows.map((row): LeakExample => {
    const text = row.text.trim();
    if (row.label === 1 && row.system_prompt) {
      const group = `written/${hashString(row.system_prompt).toString(16)}`;
      systemPrompts.set(group, row.system_prompt);
      return {
        group,
        split: splitOf(group),
        label: 1,
        kind: "written_leak",
        response: text,
        ...(row.prompt ? { prompt: row.prompt, promptKind: "extraction" as const } : {}),
      };
    }
    const id = `responses/written-talk/${hashString(text).toString(16)}`;
    const split = splitOf(id);
    // As the written instruction answers are: kind `written_talk`, paired with a prompt of its split.
    return realExample({ source: WRITTEN_SOURCE, id, text, prompt: row.prompt }, split, pairWith[split]);
  });
  return { examples, systemPrompts };
}
