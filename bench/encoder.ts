/**
 * The sentence encoder alone: `npm run bench:encoder [-- --seconds N] [--precision fp32|int8|both]`.
 * USE-lite on onnxruntime-node, fp32 and int8 (GUARDRAIL_ENCODER_PRECISION), each in a fresh child
 * process so that its load time and peak RSS are its own: texts/s batched (32 per run; int8 runs
 * them one at a time, so a text's vector is its own) and unbatched (one per run), with 1 and 2 intra-op threads, for 10-word and 60-word texts; CPU ms
 * per 60-word text (one per run, one thread) and its ratio to the fp32 encoder's; p50/p99 ms for
 * one 60-word text; the session load time (model already converted and cached), the first text's
 * time; tokenizer cost; peak RSS. Each configuration runs for about --seconds (default 2) after a
 * warm-up.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Encoder } from "../src/models/encoder.js";
import { createUseLiteEncoder } from "../src/models/use-lite/encoder.js";
import { ensureModel } from "../src/models/use-lite/model-cache.js";
import { type Precision, parsePrecision } from "../src/models/use-lite/precision.js";
import { benchArgs } from "./lib/args.js";

const values = benchArgs("npm run bench:encoder [-- --seconds N] [--precision fp32|int8|both]", {
  seconds: { type: "string", default: "2" },
  precision: { type: "string", default: "both" },
  /** Internal: measure one precision in this process and print its JSON. */
  child: { type: "string" },
});
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

/** Texts per second, and the CPU ms (this process, all threads) per text. */
async function throughput(encoder: Encoder, pool: string[], batch: number) {
  for (let i = 0; i < 3; i++) await encoder.embed(pool.slice(0, batch)); // warm up
  let done = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    const from = (done * 17) % (pool.length - batch);
    await encoder.embed(pool.slice(from, from + batch));
    done += batch;
  }
  const used = process.cpuUsage(cpu);
  return {
    perSecond: done / ((performance.now() - started) / 1000),
    cpuMs: (used.user + used.system) / 1000 / done,
  };
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

interface Row {
  precision: Precision;
  threads: number;
  loadMs: number;
  firstTextMs: number;
  shortOne: number;
  shortBatch: number;
  longOne: number;
  longBatch: number;
  longCpuMs: number;
  p50: number;
  p99: number;
}

interface ChildResult {
  id: string;
  rows: Row[];
  tokenizeMs: number;
  tokens: { short: number; long: number };
  peakRssMiB: number;
}

/** Peak resident memory of this process (Linux: VmHWM), in MiB. */
function peakRssMiB(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return match ? Number(match[1]) / 1024 : process.memoryUsage().rss / 2 ** 20;
}

/** One precision, in this (fresh) process. */
async function measure(precision: Precision): Promise<ChildResult> {
  const rows: Row[] = [];
  let id = "";
  for (const threads of [1, 2]) {
    const encoder = createUseLiteEncoder({
      intraOpThreads: threads,
      maxBatch: 32,
      precision,
      autoBuild: false,
    });
    const t0 = performance.now();
    const info = await encoder.load();
    const loadMs = performance.now() - t0;
    const t1 = performance.now();
    await encoder.embed([LONG[0] as string]);
    const firstTextMs = performance.now() - t1;
    id = info.id;
    const shortOne = await throughput(encoder, SHORT, 1);
    const shortBatch = await throughput(encoder, SHORT, 32);
    const longOne = await throughput(encoder, LONG, 1);
    const longBatch = await throughput(encoder, LONG, 32);
    const { p50, p99 } = await latency(encoder, LONG);
    rows.push({
      precision,
      threads,
      loadMs,
      firstTextMs,
      shortOne: shortOne.perSecond,
      shortBatch: shortBatch.perSecond,
      longOne: longOne.perSecond,
      longBatch: longBatch.perSecond,
      longCpuMs: longOne.cpuMs,
      p50,
      p99,
    });
    await encoder.close();
  }
  const probe = createUseLiteEncoder({ precision });
  const tokens = { short: probe.countTokens(SHORT[0] as string), long: probe.countTokens(LONG[0] as string) };
  const t0 = performance.now();
  for (let i = 0; i < 2000; i++) probe.countTokens(LONG[i % LONG.length] as string);
  const tokenizeMs = (performance.now() - t0) / 2000;
  return { id, rows, tokenizeMs, tokens, peakRssMiB: peakRssMiB() };
}

const fmt = (x: number, digits = 1): string => x.toFixed(digits).padStart(8);

async function main(): Promise<void> {
  if (values.child !== undefined) {
    process.stdout.write(`${JSON.stringify(await measure(parsePrecision(values.child, "--child")))}\n`);
    return;
  }
  const wanted: Precision[] =
    values.precision === "both" ? ["fp32", "int8"] : [parsePrecision(values.precision, "--precision")];
  // Convert first if needed, so load times below are for a cached model.
  for (const precision of wanted) await ensureModel({ precision });
  const uptime = () => spawnSync("uptime", { encoding: "utf8" }).stdout.trim();
  console.log(`machine: ${uptime()}`);
  const results: ChildResult[] = [];
  const script = fileURLToPath(import.meta.url);
  for (const precision of wanted) {
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", script, "--child", precision, "--seconds", String(SECONDS)],
      { encoding: "utf8", maxBuffer: 1 << 20 },
    );
    if (child.status !== 0) throw new Error(`${precision} run failed: ${child.stderr}`);
    const result = JSON.parse(child.stdout) as ChildResult;
    results.push(result);
    console.log(`${precision}: model ${result.id}`);
  }
  console.log(`machine after: ${uptime()}`);
  const first = results[0] as ChildResult;
  const fp32Cpu = results.find((r) => r.rows[0]?.precision === "fp32")?.rows[0]?.longCpuMs;

  console.log(
    `\nUSE-lite on onnxruntime-node, ${SECONDS} s per cell; short = 10 words (${first.tokens.short} tokens),`,
  );
  console.log(`long = 60 words (${first.tokens.long} tokens); texts/s; latency = one 60-word text per call;`);
  console.log("CPU ms/text = this process's CPU (all threads) per 60-word text, one per run;");
  console.log("÷ fp32 = that over the fp32 encoder's (1 thread) in this same bench run\n");
  console.log(
    "| encoder | threads | load ms | first text ms | short 1/run | short 32/run | long 1/run | long 32/run | CPU ms/text | ÷ fp32 | p50 ms | p99 ms |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of results.flatMap((x) => x.rows)) {
    const ratio = fp32Cpu === undefined ? "n/a" : (r.longCpuMs / fp32Cpu).toFixed(2);
    const name = r.precision === "fp32" ? "fp32 (reference)" : r.precision;
    console.log(
      `| ${name} | ${r.threads} | ${fmt(r.loadMs, 0)} | ${fmt(r.firstTextMs, 1)} | ${fmt(r.shortOne)} | ${fmt(r.shortBatch)} | ${fmt(r.longOne)} | ${fmt(r.longBatch)} | ${fmt(r.longCpuMs, 2)} | ${ratio.padStart(6)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} |`,
    );
  }
  console.log("");
  for (const [i, result] of results.entries()) {
    const precision = wanted[i] as Precision;
    console.log(
      `${precision}: peak RSS ${result.peakRssMiB.toFixed(0)} MiB (its own process, both sessions created and released); ` +
        `tokenize one 60-word text ${result.tokenizeMs.toFixed(3)} ms (included in every figure above)`,
    );
  }
}

await main();
