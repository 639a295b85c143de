/**
 * The cost of a conversation against one message of the same text (issue 23's "Measure").
 * `npm run bench:conversation [-- --runs 40]`
 *
 * In process, on the calling thread (USE-lite without workers), with the bundled default profile
 * (llm, vector, keyword, regex, pii): ten ~60-word turns (bench/lib/texts.ts), alternately user
 * turns and tool results so that every turn is scanned, checked as `messages`; and the same ten
 * texts joined by blank lines, checked as one `message`. Runs alternate after a warm-up; the
 * medians' ratio is the conversation's cost. Also counted: the encoder calls and texts each made.
 */
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { parseProfile } from "../src/config/profile.js";
import { compileProfile } from "../src/engine/compile.js";
import type { ChatMessage } from "../src/engine/conversation/messages.js";
import { createEngine } from "../src/engine/engine.js";
import { builtinGuardrails } from "../src/guardrails/registry.js";
import { type Encoder, withEmbed } from "../src/models/encoder.js";
import { createUseLiteEncoder } from "../src/models/use-lite/encoder.js";
import { benchArgs } from "./lib/args.js";
import { percentile } from "./lib/stats.js";
import { INPUT_TEXTS } from "./lib/texts.js";

const values = benchArgs("npm run bench:conversation [-- --runs 40]", {
  runs: { type: "string", default: "40" },
});
const runs = Number(values.runs);

const file = new URL("../profiles/default.yaml", import.meta.url);
const parsed = parseProfile(
  parse(await readFile(file, "utf8")),
  { file: file.pathname, stem: "default" },
  builtinGuardrails,
);
if ("problems" in parsed) throw new Error(parsed.problems.join("\n"));

const inner = createUseLiteEncoder();
let calls = 0;
let texts = 0;
const encoder: Encoder = withEmbed(inner, (batch, options) => {
  calls++;
  texts += batch.length;
  return inner.embed(batch, options);
});
await encoder.load();
const compiled = await compileProfile(parsed, builtinGuardrails, encoder);
const engine = createEngine({ registry: builtinGuardrails, encoder });

const turns = INPUT_TEXTS.slice(0, 10) as string[];
const messages = turns.map((content, i) => ({ role: i % 2 ? "tool" : "user", content })) as ChatMessage[];
const joined = turns.join("\n\n");

const timed = async (work: () => Promise<unknown>) => {
  const before = { calls, texts };
  const started = performance.now();
  await work();
  return { ms: performance.now() - started, calls: calls - before.calls, texts: texts - before.texts };
};
const one = () => timed(() => engine.check("input", joined, compiled));
const conversation = () => timed(() => engine.checkMessages(messages, compiled));

for (let i = 0; i < 5; i++) {
  await one();
  await conversation();
}
const single: number[] = [];
const multi: number[] = [];
let counts = { single: { calls: 0, texts: 0 }, multi: { calls: 0, texts: 0 } };
for (let i = 0; i < runs; i++) {
  const a = await one();
  const b = await conversation();
  single.push(a.ms);
  multi.push(b.ms);
  counts = { single: { calls: a.calls, texts: a.texts }, multi: { calls: b.calls, texts: b.texts } };
}
const median = (xs: number[]) => percentile(xs, 50);
console.log(`text: ${joined.length} characters in ${turns.length} turns; ${runs} runs each`);
console.log(
  `one message:   median ${median(single).toFixed(1)} ms; encoder ${counts.single.calls} call(s), ${counts.single.texts} texts`,
);
console.log(
  `10 messages:   median ${median(multi).toFixed(1)} ms; encoder ${counts.multi.calls} call(s), ${counts.multi.texts} texts`,
);
console.log(`ratio: ${(median(multi) / median(single)).toFixed(2)}×`);
await encoder.close();
