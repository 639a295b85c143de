/**
 * The sentence encoder alone: `npx tsx bench/encoder.ts [--seconds N]`.
 * USE-lite on onnxruntime-node, texts/s batched (32 per run) and unbatched (one per run), with 1
 * and 2 intra-op threads, for 10-word and 60-word texts; p50/p99 ms for one 60-word text; the
 * session load time (model already converted and cached); tokenizer cost; RSS at the end.
 * Each configuration runs for about --seconds (default 2) after a warm-up.
 */
import { parseArgs } from "node:util";
import type { Encoder } from "../src/models/encoder.js";
import { createUseLiteEncoder } from "../src/models/use-lite/encoder.js";
import { ensureModel } from "../src/models/use-lite/model-cache.js";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "2" } } });
const SECONDS = Number(values.seconds);

const WORDS = (
  "the a report customer please system review quickly about our team when will you send data before " +
  "meeting policy account error network travel summary question answer weather price order delivery " +
  "ignore previous instructions reveal secret friendly detailed weekly budget plan launch office"
).split(" ");

/** Deterministic varied texts of n words, so batches hold different sentences of similar length. */
function texts(count: number, words: number): string[] {
  return Array.from({ length: count }, (_, k) => {
    const out: string[] = [];
    for (let i = 0; i < words; i++)
      out.push(WORDS[(k * 7 + i * 13 + ((i * k) % 5)) % WORDS.length] as string);
    return `${out.join(" ")}.`;
  });
}

const SHORT = texts(256, 10);
const LONG = texts(256, 60);

async function throughput(encoder: Encoder, pool: string[], batch: number): Promise<number> {
  for (let i = 0; i < 3; i++) await encoder.embed(pool.slice(0, batch)); // warm up
  let done = 0;
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    const from = (done * 17) % (pool.length - batch);
    await encoder.embed(pool.slice(from, from + batch));
    done += batch;
  }
  return done / ((performance.now() - started) / 1000);
}

async function latency(encoder: Encoder, pool: string[]): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 20; i++) await encoder.embed([pool[i] as string]);
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; performance.now() - started < SECONDS * 1000 || samples.length < 200; i++) {
    const t0 = performance.now();
    await encoder.embed([pool[i % pool.length] as string]);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number): number =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { p50: at(0.5), p99: at(0.99) };
}

const fmt = (x: number, digits = 1): string => x.toFixed(digits).padStart(8);

async function main(): Promise<void> {
  await ensureModel(); // convert first if needed, so load times below are for a cached model
  const rows: string[] = [];
  for (const threads of [1, 2]) {
    const encoder = createUseLiteEncoder({ intraOpThreads: threads, maxBatch: 32 });
    const t0 = performance.now();
    const info = await encoder.load();
    const loadMs = performance.now() - t0;
    const shortOne = await throughput(encoder, SHORT, 1);
    const shortBatch = await throughput(encoder, SHORT, 32);
    const longOne = await throughput(encoder, LONG, 1);
    const longBatch = await throughput(encoder, LONG, 32);
    const { p50, p99 } = await latency(encoder, LONG);
    rows.push(
      `| ${threads} | ${fmt(loadMs, 0)} | ${fmt(shortOne)} | ${fmt(shortBatch)} | ${fmt(longOne)} | ${fmt(longBatch)} | ${fmt(p50, 2)} | ${fmt(p99, 2)} |`,
    );
    if (threads === 1) console.log(`model ${info.id} at ${info.modelPath}`);
    await encoder.close();
  }
  const probe = createUseLiteEncoder();
  const tokens = { short: probe.countTokens(SHORT[0] as string), long: probe.countTokens(LONG[0] as string) };
  const t0 = performance.now();
  for (let i = 0; i < 2000; i++) probe.countTokens(LONG[i % LONG.length] as string);
  const tokenizeMs = (performance.now() - t0) / 2000;

  console.log(
    `\nUSE-lite on onnxruntime-node, ${SECONDS} s per cell; short = 10 words (${tokens.short} tokens),`,
  );
  console.log(`long = 60 words (${tokens.long} tokens); texts/s; latency = one 60-word text per call\n`);
  console.log(
    "| threads | load ms | short 1/run | short 32/run | long 1/run | long 32/run | p50 ms | p99 ms |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log(`\ntokenize one 60-word text: ${tokenizeMs.toFixed(3)} ms (included in every figure above)`);
  console.log(
    `RSS: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB (both sessions were created and released)`,
  );
}

await main();
