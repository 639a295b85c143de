/**
 * The parts of a full check around the encoder that issue 25 made cheaper, each timed alone on
 * the bench's texts, in one checkout's built dist/: `npm run bench:glue [-- --root DIR] [--rounds 5]`.
 * Run it for two checkouts in turn to compare them (their code, this bench).
 *
 * - windowing: cutting each prompt (with a 33-character reference, as under load: two windows)
 *   into its windows and sentence pieces, with the encoder pool's token counter (USE-lite's
 *   tokenizer, on the thread that serves requests);
 * - moderation features: content_moderation's hashed n-grams of each response (`featurize`);
 * - vector scan: the vector guardrail's scan of 2 windows and 5 pieces against the bundled index
 *   (`scoreText`, one native run or two, whichever the checkout does).
 *
 * Prints the CPU µs per text of each (median of the rounds).
 */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { benchArgs } from "./lib/args.js";
import { table } from "./lib/stats.js";
import { INPUT_TEXTS, OUTPUT_TEXTS } from "./lib/texts.js";

const values = benchArgs("npm run bench:glue [-- --root DIR] [--rounds 5]", {
  root: { type: "string", default: "." },
  rounds: { type: "string", default: "5" },
});
const root = resolve(values.root);
const rounds = Number(values.rounds);
// biome-ignore lint/suspicious/noExplicitAny: another checkout's modules, typed by their use here
const dist = (path: string): Promise<any> => import(pathToFileURL(join(root, "dist", path)).href);

const { createPooledEncoder } = await dist("models/use-lite/encoder-pool.js");
const { splitIntoWindows } = await dist("text/windows.js");
const { pieceWindows } = await dist("engine/embedding.js");
const { normalizeText } = await dist("text/normalize.js");
const { featurize, words } = await dist("guardrails/content-moderation/model/features.js");
const { decodeIndex } = await dist("guardrails/vector/index-file.js");
const { createNativeScanner } = await dist("guardrails/vector/native-scan.js");
const { scoreText } = await dist("guardrails/vector/refine.js");

const prompts = Array.from({ length: 40 }, (_, k) =>
  INPUT_TEXTS.map((t, i) => normalizeText(`${t} (ref ${`${k}-${i}`.padEnd(33, "x")})`).clean as string),
).flat();
const responses = Array.from({ length: 40 }, (_, k) =>
  OUTPUT_TEXTS.map((t) => `${t.response} (ref ${k})`),
).flat();

const pool = createPooledEncoder({ workers: 1, autoBuild: false });
const count = (t: string) => pool.countTokens(t);
const tokenEnds = { tokenEnds: (t: string) => pool.tokenEnds(t) };
const windowing = () => {
  for (const text of prompts) pieceWindows(text, splitIntoWindows(text, count, tokenEnds), count, tokenEnds);
};
const responseWords = responses.map((t) => words(t));
const moderation = () => {
  for (const w of responseWords) featurize(w);
};

const manifest = JSON.parse(await readFile(join(root, "models/vector/manifest.json"), "utf8"));
const bytes = new Uint8Array(await readFile(join(root, "models/vector/index.bin")));
const index = decodeIndex(
  bytes,
  Array.from({ length: manifest.rows }, (_, i) => String(i)),
);
if (typeof index === "string") throw new Error(index);
const scanner = await createNativeScanner(index);
const unit = (seed: number) => {
  const v = Float32Array.from({ length: index.dim }, (_, j) => Math.sin(seed * 7 + j));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const embedded = (n: number, from: number) => {
  const text = {
    windows: Array.from({ length: n }, (_, i) => ({ text: "", start: i, end: i + 1 })),
    vectors: Array.from({ length: n }, (_, i) => unit(from + i)),
  };
  return async () => text;
};
const [windows, pieces] = [embedded(2, 0), embedded(5, 2)];
// The scanner object where the checkout's scoreText takes one (one run), else its `best` (two).
const scan = scanner.bestEach ? scanner : scanner.best;
const SCANS = 400;
const vectorScan = async () => {
  for (let i = 0; i < SCANS; i++) await scoreText(scan, windows, pieces);
};

/** CPU µs per item of one round of `work`. */
async function cpuPer(items: number, work: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / items;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const parts = [
  { label: "windowing: windows and pieces of a prompt", items: prompts.length, work: windowing },
  { label: "moderation features of a response", items: responses.length, work: moderation },
  { label: "vector scan: 2 windows + 5 pieces", items: SCANS, work: vectorScan },
];
for (const part of parts) await part.work(); // warm-up
const rows = [];
for (const part of parts) {
  const cpu: number[] = [];
  for (let r = 0; r < rounds; r++) cpu.push(await cpuPer(part.items, part.work));
  rows.push([
    part.label,
    median(cpu).toFixed(1),
    `${Math.min(...cpu).toFixed(1)}–${Math.max(...cpu).toFixed(1)}`,
  ]);
}
console.log(table([`${root} (${rounds} rounds)`, "CPU µs per text", "range"], rows));
await Promise.all([pool.close(), scanner.close()]);
