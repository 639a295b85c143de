/**
 * What handing texts to the encoder's worker threads costs, in CPU:
 * `npm run bench:handoff [-- --texts 300 --rounds 3]`.
 *
 * 1. One ~60-word text per call (its tokens counted first, as windowing does), through the
 *    in-thread encoder and through the pool with one worker: the difference is the hand-off
 *    (postMessage both ways, waking the worker, the reply's transfer). Rounds alternate.
 * 2. The same sentences (system_prompt_protection's of the bench's responses and prompts, by
 *    length as the pool sorts a call's texts) in model runs of 1, 2 and 6: what one more run costs.
 *    The int8 encoder runs one text per model run whatever it is handed (its activations are
 *    quantised per run), so its three columns are calls of 1, 2 and 6 texts each run alone.
 *
 * Process CPU (all threads) per text, fp32 and int8, one intra-op thread as the server runs it.
 */
import { sentences } from "../src/guardrails/system-prompt-protection/detector/sentences.js";
import { createUseLiteEncoder } from "../src/models/use-lite/encoder.js";
import { createPooledEncoder } from "../src/models/use-lite/encoder-pool.js";
import { benchArgs } from "./lib/args.js";
import { table } from "./lib/stats.js";
import { INPUT_TEXTS, OUTPUT_TEXTS } from "./lib/texts.js";

const values = benchArgs("npm run bench:handoff [-- --texts 300 --rounds 3]", {
  texts: { type: "string", default: "300" },
  rounds: { type: "string", default: "3" },
});
const count = Number(values.texts);
const rounds = Number(values.rounds);
const texts = Array.from(
  { length: count },
  (_, i) => `${INPUT_TEXTS[i % INPUT_TEXTS.length]} (ref ${100_000 + i})`,
);
const pieces = [...INPUT_TEXTS, ...OUTPUT_TEXTS.flatMap((t) => [t.prompt, t.response])]
  .flatMap((t) => sentences(t))
  .sort((a, b) => a.length - b.length);

/** CPU ms per item of `work` over `items` items. */
async function cpuPer(items: number, work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / items;
}

const rows: string[][] = [];
for (const precision of ["fp32", "int8"] as const) {
  const inThread = createUseLiteEncoder({ autoBuild: false, precision });
  const pool = createPooledEncoder({ workers: 1, autoBuild: false, precision });
  await Promise.all([inThread.load(), pool.load()]);
  const oneByOne = (encoder: typeof inThread | typeof pool) => async () => {
    for (const text of texts) {
      encoder.countTokens(text);
      await encoder.embed([text]);
    }
  };
  const ids = pieces.map((p) => inThread.tokenize(p));
  const runsOf = (size: number) => async () => {
    for (let i = 0; i < ids.length; i += size) await inThread.embedTokens(ids.slice(i, i + size));
  };
  await oneByOne(inThread)();
  await oneByOne(pool)();
  const cpu = {
    thread: [] as number[],
    pool: [] as number[],
    1: [] as number[],
    2: [] as number[],
    6: [] as number[],
  };
  for (let r = 0; r < rounds; r++) {
    cpu.thread.push(await cpuPer(texts.length, oneByOne(inThread)));
    cpu.pool.push(await cpuPer(texts.length, oneByOne(pool)));
    for (const size of [1, 2, 6] as const) cpu[size].push(await cpuPer(ids.length, runsOf(size)));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const [thread, pooled] = [median(cpu.thread), median(cpu.pool)];
  rows.push([
    precision,
    thread.toFixed(3),
    pooled.toFixed(3),
    `${(pooled / thread).toFixed(2)}×`,
    ...[1, 2, 6].map((s) => median(cpu[s as 1 | 2 | 6]).toFixed(3)),
  ]);
  await Promise.all([inThread.close(), pool.close()]);
}
console.log(
  table(
    [
      `encoder (${count} texts, ${pieces.length} sentences, median of ${rounds} rounds)`,
      "in-thread ms/text",
      "pool ms/text",
      "pool ÷ in-thread",
      "runs of 1: ms/sentence",
      "runs of 2",
      "runs of 6",
    ],
    rows,
  ),
);
console.log("int8 runs one text per model run: its columns are calls of 1, 2 and 6 texts, each run alone.");
