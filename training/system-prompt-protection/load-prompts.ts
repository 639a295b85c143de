/**
 * Reads the system prompts of ../shared/datasets/leakage at training time (nothing is copied into
 * the repo). RaccoonBench prompts share an OpenAI wrapper ("You are a "GPT" – …" and the
 * knowledge-file boilerplate); it is cut away so that 192 copies of one paragraph do not teach
 * the learned signal a phrase that also sits in every held-out prompt.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";

export interface SourcePrompt {
  /** Path relative to the leakage folder: the group key of the split. */
  readonly id: string;
  readonly source: "raccoonbench" | "chatgpt_system_prompt";
  readonly name: string;
  readonly text: string;
}

const MAX_CHARS = 12_000;
const MIN_CHARS = 200;
const WRAPPER_END = "Here are instructions from the user outlining your goals and how you should respond:";
const KNOWLEDGE = "You have files uploaded as knowledge to pull from.";

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

function unwrapRaccoon(text: string): { name: string; body: string } {
  const name = /your name is (.+?)\. Note:/.exec(text)?.[1] ?? "";
  const start = text.indexOf(WRAPPER_END);
  let body = start >= 0 ? text.slice(start + WRAPPER_END.length) : text;
  const cut = body.indexOf(KNOWLEDGE);
  if (cut >= 0) body = body.slice(0, cut);
  return { name, body: body.trim() };
}

function tidy(text: string): string {
  return text
    .replace(/^```\w*\n/, "")
    .replace(/\n```\s*$/, "")
    .trim()
    .slice(0, MAX_CHARS);
}

export function loadSystemPrompts(leakageDir: string): SourcePrompt[] {
  const out: SourcePrompt[] = [];
  for (const path of walk(join(leakageDir, "raccoonbench"))) {
    if (basename(path) !== "system_prompt.md") continue;
    const { name, body } = unwrapRaccoon(readFileSync(path, "utf8"));
    const text = tidy(body);
    const id = relative(leakageDir, path);
    if (text.length >= MIN_CHARS)
      out.push({ id, source: "raccoonbench", name: name || basename(join(path, "..")), text });
  }
  for (const path of walk(join(leakageDir, "chatgpt_system_prompt"))) {
    if (!path.endsWith(".md") || basename(path) === "TOC.md") continue;
    const text = tidy(readFileSync(path, "utf8"));
    const id = relative(leakageDir, path);
    if (text.length >= MIN_CHARS)
      out.push({ id, source: "chatgpt_system_prompt", name: basename(path, ".md"), text });
  }
  return out;
}

/** The extraction attacks (RaccoonBench), each file one attack prompt, grouped by technique. */
export function loadAttacks(leakageDir: string): { id: string; text: string }[] {
  return walk(join(leakageDir, "raccoonbench/attacks"))
    .map((path) => ({ id: relative(leakageDir, path), text: readFileSync(path, "utf8").trim() }))
    .filter((a) => a.text.length > 0);
}
