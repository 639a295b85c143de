/**
 * The project's own examples (datasets/moderation/written.json): refusals and safety explanations
 * about harmful topics (SAFE), abstract compliant responses (UNSAFE, with the topic's category) and
 * helpful answers on sensitive subjects (SAFE). Templates × topics, sampled with a fixed seed.
 * datasets/moderation/sanity.jsonl is separate, differently worded and only ever evaluated.
 */
import { join } from "node:path";
import type { ModerationCategory } from "../../src/guardrails/content-moderation/model/categories.js";
import { readJson, readJsonl } from "../lib/jsonl.js";
import { mulberry32 as rng, shuffle } from "../lib/random.js";
import type { Example } from "./example.js";

interface Written {
  topics: { topic: string; category: ModerationCategory }[];
  refusal: string[];
  safety: string[];
  compliance: string[];
  benign: string[];
}

const fill = (template: string, topic: string): string =>
  template.replaceAll("{topic}", topic).replaceAll("{Topic}", topic.charAt(0).toUpperCase() + topic.slice(1));

/** `perTopic` templates of each kind for every topic, chosen by a seeded shuffle. */
export function loadWritten(root: string, perTopic = 4, seed = 7): Example[] {
  const w = readJson(join(root, "datasets/moderation/written.json")) as Written;
  const random = rng(seed);
  const out: Example[] = [];
  for (const { topic, category } of w.topics) {
    const pick = (templates: string[], n: number) => shuffle([...templates], random).slice(0, n);
    for (const t of pick(w.refusal, perTopic))
      out.push({ text: fill(t, topic), label: 0, source: "written" });
    for (const t of pick(w.safety, 4)) out.push({ text: fill(t, topic), label: 0, source: "written" });
    for (const t of pick(w.compliance, perTopic + 2)) {
      out.push({ text: fill(t, topic), label: 1, signal: "compliance", category, source: "written" });
    }
  }
  for (const text of w.benign) out.push({ text, label: 0, source: "written" });
  return out;
}

export function loadSanity(root: string): Example[] {
  return readJsonl<{ text: string; label: 0 | 1; category?: ModerationCategory }>(
    join(root, "datasets/moderation/sanity.jsonl"),
  ).map((r) => ({
    text: r.text,
    label: r.label,
    source: "sanity",
    ...(r.category ? { category: r.category } : {}),
  }));
}
