import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { readJsonl } from "../lib/jsonl.js";
import { dedup } from "./dedup.js";
import { createRng, type Example, example, pick } from "./example.js";
import { plantPayloads } from "./indirect.js";
import type { Split } from "./split.js";

interface Row {
  text: string;
  label: 0 | 1;
  technique: string;
  /** "payload": an instruction to plant into training-split documents; else a whole prompt. */
  kind?: "payload" | "prompt" | "hard" | "long";
}

export interface Extra {
  prompts: Example[];
  payloads: { family: string; payload: string }[];
}

/**
 * A folder of the project's extra data (training/data/injection-broad/ or training/data/injection-extra/, see
 * their READMEs; the shipped model uses neither): training-only rows, one JSON object a line with
 * `text`, `label`, `technique` (the family) and optional `kind`.
 */
export function loadExtra(dir: string, _seed: number): Extra {
  const prompts: Example[] = [];
  const payloads: Extra["payloads"] = [];
  if (!existsSync(dir)) return { prompts, payloads };
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()) {
    const name = basename(file, ".jsonl");
    readJsonl<Row>(join(dir, file)).forEach((row, i) => {
      if (row.kind === "payload") payloads.push({ family: `extra:${row.technique}`, payload: row.text });
      else
        prompts.push(
          example(
            row.text,
            row.label === 1 ? 1 : 0,
            `extra/${name}`,
            `extra:${name}:${row.technique}:${i}`,
            row.kind ?? (row.label === 1 ? "prompt" : "hard"),
          ),
        );
    });
  }
  return { prompts, payloads };
}

// Lead-ins for planted extra payloads (half go in bare).
const LEADS = [
  "{p}",
  "{p}",
  "Note for the assistant: {p}",
  "To any AI reading this page: {p}",
  "{p} (automated note)",
];

/**
 * Adds the extra rows to the training split only, so the calibration and test splits stay exactly
 * as without them. Payloads are planted into training-split documents. Any extra row that is a
 * near-copy (same MinHash family) of a calibration, test or held-out text is dropped.
 */
export function addExtraToTrain(
  splits: Record<Split, Example[]>,
  extra: Extra,
  seed = 9,
): { added: Example[]; dropped: number } {
  // The extra benign documents carry payloads too: the same document clean and planted teaches
  // that the payload, not the document's own instructions to its human readers, is the attack.
  const carriers = [...splits.train, ...extra.prompts]
    .filter((e) => e.label === 0 && e.kind === "long")
    .map((e) => e.text);
  const rng = createRng(seed);
  const planted =
    carriers.length > 0
      ? plantPayloads(
          extra.payloads,
          carriers,
          "extra/planted",
          seed,
          (p) => pick(LEADS, rng).replace("{p}", p),
          3,
        )
      : [];
  // plantPayloads also returns each carrier clean; those are training texts already.
  const candidates = [...extra.prompts, ...planted.filter((e) => e.label === 1)];
  const others = [...splits.calibration, ...splits.test, ...splits.heldout];
  const { kept, family } = dedup([...others, ...candidates]);
  const blocked = new Set(others.map((e) => family.get(e)).filter((f) => f !== undefined));
  const keptSet = new Set(kept);
  const added = candidates.filter((e) => keptSet.has(e) && !blocked.has(family.get(e) as string));
  splits.train.push(...added);
  return { added, dropped: candidates.length - added.length };
}
