/**
 * Trains and measures the system_prompt_protection leak model; writes models/system-prompt-protection/.
 *   npm run train:system-prompt-protection -- [--data DIR] [--out DIR] [--seed N] [--no-encoder] [--threads N]
 * Split by system prompt (generate.ts: 60% train, 15% validation, 25% test). The two n-gram
 * classifiers learn on train; the combiners and the threshold on validation (so they see the
 * classifiers' held-out behaviour); every printed figure is on test.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  featurize,
  ngramTokens,
} from "../../src/guardrails/system-prompt-protection/detector/hashed-ngrams.js";
import {
  type HashedModel,
  partsProbability,
} from "../../src/guardrails/system-prompt-protection/detector/linear.js";
import { sentences } from "../../src/guardrails/system-prompt-protection/detector/sentences.js";
import { precomputedEncoder } from "./embed-cache.js";
import { fitDense, fitHashed } from "./fit.js";
import { generateExamples, splitOf } from "./generate.js";
import { loadAttacks, loadSystemPrompts } from "./load-prompts.js";
import { atThreshold } from "./metrics.js";
import { testReport } from "./report.js";
import { combinerFeatures, type PartsRow, type Setting, scoreExamples } from "./score-examples.js";
import { writeLeakModel } from "./write-model.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values } = parseArgs({
  options: {
    data: { type: "string", default: resolve(root, "../shared/datasets/leakage") },
    out: { type: "string", default: resolve(root, "models/system-prompt-protection") },
    seed: { type: "string", default: "20261122" },
    "no-encoder": { type: "boolean", default: false },
    threads: { type: "string", default: "2" },
  },
});
const seed = Number(values.seed);
const started = performance.now();
const log = (s: string) => console.log(s);

const prompts = loadSystemPrompts(values.data);
const attacks = loadAttacks(values.data);
const systemPrompts = new Map(prompts.map((p) => [p.id, p.text]));
const examples = prompts.flatMap((p) => {
  const split = splitOf(p.id);
  const own = attacks.filter((a) => (splitOf(a.id) === "train") === (split === "train")).map((a) => a.text);
  return generateExamples(p, split, own, seed);
});
const bySplit = (s: string) => examples.filter((e) => e.split === s);
const [train, val, test] = [bySplit("train"), bySplit("val"), bySplit("test")];
log(
  `${prompts.length} system prompts, ${attacks.length} attacks; examples train ${train.length}, val ${val.length}, test ${test.length}`,
);

function fitText(rows: { text: string; y: 0 | 1 }[], bits: number): HashedModel {
  const data = rows.map((r) => ({ x: featurize(ngramTokens(r.text), bits), y: r.y }));
  const fit = fitHashed(data, bits, { epochs: 6, l2: 1e-4, rate: 0.2, seed });
  return { bits, bias: fit.bias, weights: Float32Array.from(fit.weights) };
}
const disclosure = fitText(
  train.map((e) => ({ text: e.response, y: e.label })),
  18,
);
const promptRows = new Map<string, 0 | 1>();
for (const e of train) if (e.prompt) promptRows.set(e.prompt, e.promptKind === "extraction" ? 1 : 0);
const extraction = fitText(
  [...promptRows].map(([text, y]) => ({ text, y })),
  16,
);
const models = { disclosure, extraction };

const useEncoder = !values["no-encoder"];
const settings: Setting[] = useEncoder ? ["", "S", "SE"] : ["", "S"];
let encoder: Awaited<ReturnType<typeof precomputedEncoder>> | undefined;
if (useEncoder) {
  const held = [...val, ...test];
  const texts = [...new Set(held.map((e) => e.group))].flatMap((g) =>
    sentences(systemPrompts.get(g) ?? "", 256),
  );
  for (const e of held) texts.push(...sentences(e.response, 64));
  encoder = await precomputedEncoder(texts, Number(values.threads));
  log(`embedded ${new Set(texts).size} sentences in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const combiners: Record<string, { features: string[]; weights: number[]; bias: number }> = {};
const valParts = new Map<Setting, PartsRow[]>();
for (const setting of settings) {
  const rows = await scoreExamples(val, systemPrompts, models, setting, encoder);
  valParts.set(setting, rows);
  for (const key of [setting, `${setting}P`]) {
    const features = combinerFeatures(key);
    const use = key.endsWith("P") ? rows.filter((r) => r.example.prompt) : rows;
    const x = use.map((r) => features.map((n) => r.parts[n] ?? 0));
    const fit = fitDense(
      x,
      use.map((r) => r.example.label),
      1e-4,
    );
    combiners[key] = { features, weights: fit.weights.map((w) => +w.toFixed(5)), bias: +fit.bias.toFixed(5) };
  }
}

/** Scores rows as the detector does: the P combiner when the example carries a prompt and it is used. */
const scored = (rows: PartsRow[], setting: Setting, usePrompt: boolean) =>
  rows.map((r) => {
    const key = `${setting}${usePrompt && r.example.prompt ? "P" : ""}`;
    const c = combiners[key];
    if (!c) throw new Error(`no combiner ${key}`);
    return { score: partsProbability(c, r.parts), label: r.example.label, kind: r.example.kind };
  });

// The threshold with the best mean F1 over every setting, on validation.
let threshold = 0.5;
let bestF1 = -1;
for (let t = 0.05; t < 0.951; t += 0.01) {
  const f1s = settings.flatMap((s) =>
    [true, false].map((p) => atThreshold(scored(valParts.get(s) ?? [], s, p), t).f1),
  );
  const mean = f1s.reduce((a, b) => a + b, 0) / f1s.length;
  if (mean > bestF1 + 1e-9) [bestF1, threshold] = [mean, +t.toFixed(2)];
}
log(`threshold ${threshold} (mean validation F1 ${bestF1.toFixed(3)})`);

const names: Record<Setting, string> = {
  "": "no system prompt",
  S: "system prompt",
  SE: "system prompt + encoder",
};
const results: { name: string; rows: ReturnType<typeof scored> }[] = [];
for (const setting of settings) {
  const rows = await scoreExamples(test, systemPrompts, models, setting, encoder);
  for (const usePrompt of [false, true]) {
    results.push({
      name: `${names[setting]}${usePrompt ? " + prompt" : ""}`,
      rows: scored(rows, setting, usePrompt),
    });
  }
}
log(testReport(results, test, threshold));

writeLeakModel(values.out, { threshold, seed, encoder: useEncoder, disclosure, extraction, combiners });
log(`\nwrote ${values.out} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
