import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { BUNDLED_CORPUS } from "../../src/guardrails/vector/targets.js";
import { readJsonl } from "../lib/jsonl.js";
import { createRng, type Example, example, type Kind, pick } from "./example.js";
import { type Payload, plant, plantPayloads } from "./indirect.js";

interface Row {
  text?: string;
  prompt?: string;
  label?: number | string;
  id?: string;
  technique?: string;
  category?: string;
  kind?: string;
  group?: string;
  /** For planted (indirect) attacks: the injected instruction inside `text`. */
  payload?: string;
}

/** A folder's JSON Lines files, by name: the order the pool, and so dedup's first copies, follow. */
function jsonlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => join(dir, f));
}

/** A file's slice, from its name: hard negatives, long documents, indirect (planted) attacks. */
function kindOf(file: string, label: 0 | 1, row: Row): Kind {
  const name = `${file} ${row.kind ?? ""} ${row.category ?? ""}`.toLowerCase();
  if (/indirect|planted|carrier|payload/.test(name) && label === 1) return "indirect";
  if (/long|document|email|e-mail|carrier/.test(name)) return "long";
  if (/hard|trigger|roleplay|role-play|act-as|security/.test(name)) return "hard";
  return "prompt";
}

/**
 * The project's own data: datasets/attacks/*.jsonl and the known-attack corpus the vector index is
 * built from (models/vector/known-injections.jsonl), label 1 unless a row says otherwise, and
 * datasets/benign/*.jsonl (label 0). One JSON object a line with `text` (or `prompt`); `technique`,
 * `category` or `group` names the family the split keeps together.
 */
export function loadProjectData(
  root: string,
  seed: number,
  { knownAttacks = BUNDLED_CORPUS, systemPrompts = false, plantInPrompts = false } = {},
): Example[] {
  const out: Example[] = [];
  const payloads: Payload[] = [];
  for (const [folder, defaultLabel] of [
    ["attacks", 1],
    ["benign", 0],
  ] as const) {
    const dir = join(root, folder);
    if (!existsSync(dir)) continue;
    const files = jsonlFiles(dir);
    // The corpus sorts last among the attacks, where it stood when it lived in datasets/attacks/.
    if (folder === "attacks" && existsSync(knownAttacks)) files.push(knownAttacks);
    for (const file of files) {
      const name = basename(file, ".jsonl");
      readJsonl<Row>(file).forEach((row, i) => {
        const text = row.text ?? row.prompt ?? "";
        if (!text.trim()) return;
        const label: 0 | 1 =
          row.label === undefined
            ? defaultLabel
            : Number(row.label) === 1 || row.label === "injection"
              ? 1
              : 0;
        const family = row.group ?? row.technique ?? row.category ?? String(i);
        if (name === "indirect-payloads") {
          payloads.push({ family: `project-payload:${family}`, payload: text });
          return;
        }
        const e = example(
          text,
          label,
          `project-${folder}/${name}`,
          `project:${name}:${family}`,
          kindOf(name, label, row),
        );
        out.push(row.payload ? { ...e, payload: row.payload } : e);
      });
    }
  }
  if (systemPrompts) {
    const prompts = loadSystemPrompts(root);
    const attacks = out.filter((e) => e.label === 1 && e.kind === "prompt").map((e) => e.text);
    out.push(...prompts, ...(plantInPrompts ? plantAttacks(prompts, attacks, seed + 1) : []));
  }
  // Planted into the project's carriers and long documents (the payloads address the model already).
  const carriers = out.filter((e) => e.label === 0 && e.kind === "long").map((e) => e.text);
  if (payloads.length > 0 && carriers.length > 0) {
    out.push(...plantPayloads(payloads, carriers, "project-planted", seed, (p) => p, 3));
  }
  return out;
}

/**
 * datasets/prompts/*.jsonl: benign prompts that instruct a model (app system prompts, personas,
 * "act as" set-ups, long structured task prompts, format and safety rules, agent tool lists),
 * written by the project without reading the public sets whose system-style prompts the model
 * flags. Text addressed to a model that is not an attack, so each is a hard negative; one family a
 * prompt. Behind `--system-prompts`, which `npm run train:llm` passes (v4); loso.ts and the
 * other scripts take it too, so v3's pool stays measurable beside v4's.
 */
export function loadSystemPrompts(root: string): Example[] {
  const dir = join(root, "prompts");
  if (!existsSync(dir)) return [];
  return jsonlFiles(dir).flatMap((file) => {
    const name = basename(file, ".jsonl");
    return readJsonl<Row>(file).flatMap((row, i) => {
      const text = row.text ?? "";
      if (!text.trim()) return [];
      const id = row.id ?? String(i);
      return [example(text, 0, `project-prompts/${name}`, `project:${name}:${id}`, "hard")];
    });
  });
}

/**
 * Each written prompt once more with one of the project's direct attacks planted in it (at the
 * start, the end or between two sentences; label 1, the prompt's own family so that the pair is
 * never split): a prompt addressed to a model is not the signal, an override inside it is. The
 * same text with and without the attack makes the difference the only thing left to learn.
 */
export function plantAttacks(
  prompts: readonly Example[],
  attacks: readonly string[],
  seed: number,
): Example[] {
  if (attacks.length === 0) return [];
  const rng = createRng(seed);
  return prompts.map((p) =>
    example(plant(p.text, pick(attacks, rng), rng), 1, `${p.source}-planted`, p.group, "prompt"),
  );
}
