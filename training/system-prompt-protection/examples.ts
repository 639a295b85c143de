/**
 * The bundled model's examples, split by system prompt (generate.ts: 60% train, 15% validation,
 * 25% test): each system prompt's generated responses in its split, with the attacks of its side
 * of the split, and the real responses that leak nothing (real-responses.ts) unless left out.
 * train.ts fits on them; dump-vectors.ts writes them for training/heads/leak_head.py.
 */
import { resolve } from "node:path";
import { generateExamples, type LeakExample, splitOf } from "./generate.js";
import { loadAttacks, loadSystemPrompts } from "./load-prompts.js";
import { loadRealResponses, realExamplesBySplit } from "./real-responses.js";
import { readWrittenRows, writtenExamples } from "./written-rows.js";

export interface ExampleOptions {
  /** Leave out the real responses (`--no-real-responses`). */
  readonly noRealResponses?: boolean;
  /** Also the project-written instruction answers (`--written`). */
  readonly written?: boolean;
  /** Project-written leaks and talk answers to train on (`--train-written`, written-rows.ts). */
  readonly trainWritten?: readonly string[];
}

/** `data` is ../shared/datasets/leakage; the real responses are read from its parent. */
export function buildExamples(data: string, seed: number, options: ExampleOptions = {}) {
  const prompts = loadSystemPrompts(data);
  const attacks = loadAttacks(data);
  const systemPrompts = new Map(prompts.map((p) => [p.id, p.text]));
  const examples: LeakExample[] = prompts.flatMap((p) => {
    const split = splitOf(p.id);
    const own = attacks.filter((a) => (splitOf(a.id) === "train") === (split === "train")).map((a) => a.text);
    return generateExamples(p, split, own, seed);
  });
  if (!options.noRealResponses)
    examples.push(
      ...realExamplesBySplit(
        loadRealResponses(resolve(data, ".."), { written: options.written }),
        prompts.map((p) => p.id),
      ),
    );
  if (options.trainWritten?.length) {
    const bySplit = { train: [] as string[], val: [] as string[], test: [] as string[] };
    for (const p of prompts) bySplit[splitOf(p.id)].push(p.id);
    const written = writtenExamples(readWrittenRows(options.trainWritten), bySplit);
    for (const [id, text] of written.systemPrompts) systemPrompts.set(id, text);
    examples.push(...written.examples);
  }
  return { prompts, attacks, systemPrompts, examples };
}
