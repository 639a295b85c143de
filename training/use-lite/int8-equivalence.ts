/**
 * Is the int8 USE-lite the same model as the fp32 one? `npm run eval:use-int8 [-- --texts 1000]`
 *
 * On 1,000 varied texts from the shared data sets (int8-texts.ts), both encoders in this thread:
 * - the cosine of each text's sentence vector, int8 against fp32 (mean, worst, 1st percentile),
 *   and of each token state (the second output, which the trained heads may read);
 * - the int8 vector of a text embedded alone against the same text asked for in a batch of 32
 *   (activations are quantised per run, so the encoder runs int8 one text at a time: 1 exactly);
 * - every model-backed guardrail's score on every text, as the engine reports it (rounded to 4
 *   decimals): input-check for llm and vector (the bundled fp32-built index, which the int8
 *   encoder uses as is), output-check for content_moderation (both signals) and
 *   system_prompt_protection (the full-check bench's system prompt): the largest and mean absolute
 *   difference, and how many verdicts differ.
 */

import { SYSTEM_PROMPT } from "../../bench/lib/texts.js";
import { parseProfile } from "../../src/config/profile.js";
import { compileProfile } from "../../src/engine/compile.js";
import { createEngine } from "../../src/engine/engine.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import type { GuardrailId } from "../../src/guardrails/types.js";
import { cosine } from "../../src/models/encoder.js";
import {
  createUseLiteEncoder,
  USE_LITE_DIM,
  type UseLiteEncoder,
} from "../../src/models/use-lite/encoder.js";
import type { Precision } from "../../src/models/use-lite/precision.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { SHARED_DATASETS } from "../lib/paths.js";
import { sampleTexts } from "./int8-texts.js";

const USAGE = "npm run eval:use-int8 -- [options]";
const FLAGS = {
  texts: flag.integer(1000, "how many texts", { min: 10 }),
  datasets: flag.path(SHARED_DATASETS, "the shared data sets (SOURCES.md)"),
};

/** A score the engine reports, by name, from one check's body. */
type Scores = Record<string, number>;
interface Checked {
  scores: Scores;
  flagged: ReadonlySet<GuardrailId>;
}

function profile(guardrails: Record<string, unknown>) {
  const parsed = parseProfile(
    { name: "int8", guardrails },
    { file: "int8.yaml", stem: "int8" },
    builtinGuardrails,
  );
  if ("problems" in parsed) throw new Error(parsed.problems.join("\n"));
  return parsed;
}
const INPUT = profile({ llm: { enabled: true }, vector: { enabled: true } });
const OUTPUT = profile({
  content_moderation: { enabled: true },
  system_prompt_protection: { enabled: true, system_prompt: SYSTEM_PROMPT },
});

function scoresOf(checks: Record<string, Record<string, unknown>>): Scores {
  const out: Scores = {};
  for (const [id, check] of Object.entries(checks)) {
    if (typeof check.score === "number") out[id] = check.score;
    const signals = check.signals as Record<string, number> | undefined;
    for (const [name, value] of Object.entries(signals ?? {})) out[`${id}.${name}`] = value;
  }
  return out;
}

async function guardrailScores(precision: Precision, texts: readonly string[]): Promise<Checked[]> {
  const encoder = createUseLiteEncoder({ precision });
  const engine = createEngine({ registry: builtinGuardrails, encoder });
  const input = await compileProfile(INPUT, builtinGuardrails, encoder);
  const output = await compileProfile(OUTPUT, builtinGuardrails, encoder);
  const results: Checked[] = [];
  for (const text of texts) {
    const a = await engine.check("input", text, input);
    const b = await engine.check("output", text, output);
    if (a.failures.length + b.failures.length > 0)
      throw new Error(
        `${precision}: ${[...a.failures, ...b.failures].map((f) => f.error.message).join("; ")}`,
      );
    results.push({
      scores: { ...scoresOf(a.body.checks), ...scoresOf(b.body.checks) },
      flagged: new Set([...a.flaggedBy, ...b.flaggedBy]),
    });
  }
  await encoder.close();
  return results;
}

/** Vectors and token states in runs of up to 32 texts, as the encoder batches them. */
async function encodeAll(encoder: UseLiteEncoder, ids: readonly number[][]) {
  const vectors: Float32Array[] = [];
  const states: Float32Array[] = [];
  for (let i = 0; i < ids.length; i += 32) {
    const run = await encoder.encodeTokens(ids.slice(i, i + 32));
    vectors.push(...run.vectors);
    states.push(...run.states);
  }
  return { vectors, states };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const quantile = (xs: readonly number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))] as number;
const describe = (xs: readonly number[]) =>
  `mean ${mean(xs).toFixed(5)}, worst ${Math.min(...xs).toFixed(5)}, 1st percentile ${quantile(xs, 0.01).toFixed(5)} (n ${xs.length})`;

async function main(argv: string[]): Promise<void> {
  const options = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const sampled = sampleTexts(options.datasets, options.texts);
  const texts = sampled.map((s) => s.text);
  const fp32 = createUseLiteEncoder({ precision: "fp32", maxRunTokens: 32 * 128 });
  const int8 = createUseLiteEncoder({ precision: "int8", maxRunTokens: 32 * 128 });
  const [a, b] = [await fp32.load(), await int8.load()];
  log(`${texts.length} texts; fp32 ${a.id}, int8 ${b.id} (approximates ${b.approximates})`);
  const ids = texts.map((t) => fp32.tokenize(t));

  const f = await encodeAll(fp32, ids);
  const q = await encodeAll(int8, ids);
  const vectorCos = texts.map((_, i) => cosine(f.vectors[i] as Float32Array, q.vectors[i] as Float32Array));
  const stateCos: number[] = [];
  f.states.forEach((s, i) => {
    const t = q.states[i] as Float32Array;
    for (let at = 0; at < s.length; at += USE_LITE_DIM)
      stateCos.push(cosine(s.subarray(at, at + USE_LITE_DIM), t.subarray(at, at + USE_LITE_DIM)));
  });
  const alone = await Promise.all(ids.map((one) => int8.embedTokens([one])));
  const aloneCos = alone.map(([v], i) => cosine(v as Float32Array, q.vectors[i] as Float32Array));
  const aloneFp = await Promise.all(ids.map((one) => fp32.embedTokens([one])));
  const aloneFpCos = aloneFp.map(([v], i) => cosine(v as Float32Array, f.vectors[i] as Float32Array));
  await Promise.all([fp32.close(), int8.close()]);

  console.log("\nSentence vectors, int8 against fp32 (each text's first 128 tokens, batches of 32):");
  console.log(`  all texts: ${describe(vectorCos)}`);
  const sources = [...new Set(sampled.map((s) => s.source))];
  for (const source of sources) {
    const mine = vectorCos.filter((_, i) => sampled[i]?.source === source);
    console.log(
      `  ${source}: mean ${mean(mine).toFixed(5)}, worst ${Math.min(...mine).toFixed(5)} (n ${mine.length})`,
    );
  }
  console.log(`Token states, int8 against fp32: ${describe(stateCos)}`);
  console.log(`int8 alone against in a batch of 32: ${describe(aloneCos)}`);
  console.log(`fp32 alone against in a batch of 32: ${describe(aloneFpCos)}`);

  log("guardrails, fp32");
  const gf = await guardrailScores("fp32", texts);
  log("guardrails, int8");
  const gq = await guardrailScores("int8", texts);
  console.log("\nGuardrail scores, int8 against fp32 (as the engine reports them, 4 decimals):");
  console.log("| score | max abs diff | mean abs diff | verdicts that differ | flagged by fp32 |");
  console.log("|---|--:|--:|--:|--:|");
  const names = [...new Set(gf.flatMap((g) => Object.keys(g.scores)))].sort();
  for (const name of names) {
    const diffs = gf.map((g, i) => Math.abs((g.scores[name] ?? 0) - (gq[i]?.scores[name] ?? 0)));
    const id = name.split(".")[0] as GuardrailId;
    const flips = gf.filter((g, i) => g.flagged.has(id) !== gq[i]?.flagged.has(id)).length;
    const flagged = gf.filter((g) => g.flagged.has(id)).length;
    console.log(
      `| ${name} | ${Math.max(...diffs).toFixed(4)} | ${mean(diffs).toFixed(5)} | ${flips} of ${texts.length} | ${flagged} |`,
    );
  }
  log("done");
}

runMain(import.meta.url, main);
