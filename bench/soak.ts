/**
 * The server's memory under a long mixed load: `npx tsx bench/soak.ts [--seconds 300]`.
 * Options: --connections (default 8), --sample (seconds between samples, default 10),
 * --reload-every (seconds between config reloads, default 20), --node-args="…" (extra flags for
 * the server's node). The server inherits the environment, so `MALLOC_ARENA_MAX=2 npx tsx
 * bench/soak.ts` tries glibc's arena cap.
 *
 * Starts the real server (`node bin/guardrail.js serve`, building dist/ first if it is stale) on
 * a temporary config dir holding the bundled `default` and `strict` profiles, an app for each and
 * one API key. Each connection sends, one after another: 5% GET /healthz, else input-check or
 * output-check (half of them with the prompt) on either profile, with texts of 10 to 20,000
 * characters (log-uniform, cut from bench/lib/texts.ts). Every --reload-every seconds the config
 * is reloaded, by SIGHUP and by rewriting a profile in turn.
 *
 * Every --sample seconds it prints the server's RSS, where that RSS is (/proc/<pid>/smaps: V8
 * heaps and large mallocs, glibc malloc arenas, mapped files) and each thread's V8 heap (from
 * bench/lib/memory-probe.mjs, preloaded into the server and its worker threads); at the end,
 * requests/s, latency, CPU per request and the RSS it settled at (median and max of the samples
 * in the last 60% of the run). Linux only (/proc).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { benchArgs } from "./lib/args.js";
import { checkHeaders, writeConfigDir } from "./lib/config.js";
import { memoryMap } from "./lib/proc-memory.js";
import { seededRandom } from "./lib/random.js";
import { type BenchServer, ROOT, removeOnExit, spawnServer, staleDist } from "./lib/server.js";
import { median, percentile } from "./lib/stats.js";
import { INPUT_TEXTS, OUTPUT_TEXTS } from "./lib/texts.js";

const values = benchArgs("npx tsx bench/soak.ts [--seconds 300] [flags]", {
  seconds: { type: "string", default: "300" },
  connections: { type: "string", default: "8" },
  sample: { type: "string", default: "10" },
  "reload-every": { type: "string", default: "20" },
  "node-args": { type: "string", default: "" },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const SAMPLE = Number(values.sample);
const RELOAD_EVERY = Number(values["reload-every"]);
for (const [name, value] of Object.entries({ SECONDS, CONNECTIONS, SAMPLE, RELOAD_EVERY })) {
  if (!(value > 0)) {
    console.error(`--${name.toLowerCase().replace("_", "-")} must be a positive number`);
    process.exit(2);
  }
}

const PATHS = {
  input: "/apikey/api/guardrail/v1/input-check",
  output: "/apikey/api/guardrail/v1/output-check",
};
const PROFILES = ["default", "strict"] as const;
const MiB = 2 ** 20;

/** A text of exactly `length` characters, cut from the bench texts joined at random. */
function textOf(length: number, random: (n: number) => number): string {
  const pool = [...INPUT_TEXTS, ...OUTPUT_TEXTS.map((t) => t.response)] as string[];
  let text = "";
  while (text.length < length) text += `${pool[random(pool.length)]} `;
  return text.slice(0, length).trim() || "hello";
}

interface Call {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly chars: number;
}

function nextCall(config: Awaited<ReturnType<typeof writeConfigDir>>, random: (n: number) => number): Call {
  if (random(100) < 5) return { method: "GET", path: "/healthz", headers: {}, body: "", chars: 0 };
  const chars = Math.round(10 * 2000 ** (random(1_000_000) / 1_000_000));
  const profile = PROFILES[random(2)] as string;
  const mode = random(2) === 0 ? "input" : "output";
  const message = textOf(chars, random);
  const prompt = mode === "output" && random(2) === 0 ? { prompt: textOf(200, random) } : {};
  const body = JSON.stringify({ message, ...prompt });
  return { method: "POST", path: PATHS[mode], headers: checkHeaders(config, profile), body, chars };
}

interface Answer {
  readonly status: number;
  readonly ms: number;
}

function send(agent: Agent, url: string, call: Call): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const headers = { ...call.headers, "content-length": String(Buffer.byteLength(call.body)) };
    const req = request(`${url}${call.path}`, { method: call.method, agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    });
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(call.body);
  });
}

interface ThreadHeap {
  thread: number;
  main: boolean;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/** The latest line of each thread in the probe file. */
function threadHeaps(file: string): ThreadHeap[] {
  const latest = new Map<number, ThreadHeap>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    const sample = JSON.parse(line) as ThreadHeap;
    latest.set(sample.thread, sample);
  }
  return [...latest.values()];
}

async function main(): Promise<void> {
  setTimeout(
    () => {
      console.error("soak: over its time budget; stopping");
      process.exit(1);
    },
    (SECONDS + 180) * 1000,
  ).unref();
  const stale = await staleDist();
  if (stale.length > 0) {
    console.log(`dist/ is stale (${stale.length} files): npm run build`);
    const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
  }

  const root = await mkdtemp(join(tmpdir(), "guardrail-soak-"));
  removeOnExit(root);
  const bundled = (name: string) => {
    const {
      name: _,
      default: __,
      ...profile
    } = parse(readFileSync(new URL(`profiles/${name}.yaml`, ROOT), "utf8"));
    return profile as object;
  };
  const config = await writeConfigDir(
    join(root, "config"),
    Object.fromEntries(PROFILES.map((p) => [p, bundled(p)])),
  );
  const probeFile = join(root, "memory.jsonl");
  writeFileSync(probeFile, "");
  process.env.GUARDRAIL_MEMORY_PROBE = probeFile;
  const probe = fileURLToPath(new URL("lib/memory-probe.mjs", import.meta.url));
  const nodeArgs = ["--import", probe, ...values["node-args"].split(" ").filter(Boolean)];
  const server = await spawnServer({ configDir: config.dir, logFile: join(root, "server.log"), nodeArgs });
  const pid = server.child.pid as number;
  console.log(
    `server pid ${pid} listening after ${server.listeningMs.toFixed(0)} ms; node ${nodeArgs.slice(2).join(" ") || "(default flags)"}`,
  );
  console.log(
    `MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? "(unset)"}; ${CONNECTIONS} connections for ${SECONDS} s; load ${loadAverage()}`,
  );

  // One idle sample first (the probe writes every second): what the server holds before any check.
  await new Promise((r) => setTimeout(r, 1500));
  const idle = await memoryRow(pid, server, probeFile, "idle", "0");

  const startedAt = performance.now();
  const deadline = startedAt + SECONDS * 1000;
  const answers: (Answer & { chars: number })[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const connection = async (seed: number) => {
    const random = seededRandom(seed);
    while (performance.now() < deadline) {
      const call = nextCall(config, random);
      answers.push({ ...(await send(agent, server.url, call)), chars: call.chars });
    }
  };
  const cpuBefore = await server.cpuMs();
  const running = Array.from({ length: CONNECTIONS }, (_, i) => connection(i + 1));

  let reloads = 0;
  const profileFile = join(config.dir, "profiles", "strict.yaml");
  const reloader = setInterval(() => {
    reloads++;
    if (reloads % 2 === 1) server.child.kill("SIGHUP");
    else {
      const profile = parse(readFileSync(profileFile, "utf8"));
      writeFileSync(profileFile, stringify({ ...profile, description: `reload ${reloads}` }));
    }
  }, RELOAD_EVERY * 1000);

  const rows: string[][] = [];
  const settled: number[] = [];
  const header = [
    "s",
    "req/s",
    "RSS",
    "peak",
    "V8 main",
    "V8 workers",
    "main external",
    "malloc",
    "arenas",
    "other anon",
    "files",
  ];
  const widths = header.map((h, i) => Math.max(h.length, [4, 6, 5, 5, 10, 14, 11, 6, 6, 10, 5][i] ?? 0));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join("  ");
  console.log("\nMiB. V8: heap total (used) per isolate; malloc: glibc [heap] + thread arenas;");
  console.log("other anon: every other anonymous mapping (V8 heaps, large mallocs, stacks).");
  console.log(line(header));
  console.log(line(idle));
  let logged = { reloaded: 0, problems: [] as string[] };
  let lastCount = 0;
  let lastAt = startedAt;
  for (let at = SAMPLE; at <= SECONDS + 1e-9; at += SAMPLE) {
    await new Promise((r) => setTimeout(r, startedAt + at * 1000 - performance.now()));
    logged = countLog(server, logged);
    const now = performance.now();
    const rate = ((answers.length - lastCount) * 1000) / (now - lastAt);
    [lastCount, lastAt] = [answers.length, now];
    const row = await memoryRow(pid, server, probeFile, at.toFixed(0), rate.toFixed(1));
    if (at > SECONDS * 0.4) settled.push(Number(row[2]));
    rows.push(row);
    console.log(line(row));
  }
  clearInterval(reloader);
  await Promise.all(running);
  const cpuMs = (await server.cpuMs()) - cpuBefore;
  logged = countLog(server, logged);
  agent.destroy();
  await server.stop();

  const posts = answers.filter((a) => a.chars > 0);
  const failed = answers.filter((a) => a.status !== 200);
  const seconds = (performance.now() - startedAt) / 1000;
  const statuses = new Map<number, number>();
  for (const { status } of failed) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const byStatus = [...statuses].map(([status, n]) => `${status || "no answer"}: ${n}`);
  console.log(
    `\n${answers.length} requests (${posts.length} checks, ${posts.reduce((s, a) => s + a.chars, 0).toLocaleString("en")} characters) in ${seconds.toFixed(0)} s: ${(answers.length / seconds).toFixed(1)} req/s`,
  );
  console.log(
    `not 200: ${failed.length}${byStatus.length ? ` (${byStatus.join(", ")})` : ""}; reloads sent ${reloads}, logged ${logged.reloaded}`,
  );
  const ms = posts.map((a) => a.ms);
  console.log(
    `check latency p50 / p99 / max: ${percentile(ms, 50).toFixed(0)} / ${percentile(ms, 99).toFixed(0)} / ${Math.max(...ms).toFixed(0)} ms; server CPU ${(cpuMs / posts.length).toFixed(1)} ms per check`,
  );
  console.log(
    `RSS idle ${idle[2]} MiB; settled (last 60% of samples): median ${median(settled).toFixed(0)} MiB, max ${Math.max(...settled).toFixed(0)} MiB; peak (VmHWM) ${rows.at(-1)?.[3]} MiB`,
  );
  for (const problem of logged.problems.slice(0, 5)) console.log(`server logged: ${problem}`);
  console.log(`load ${loadAverage()}`);
}

/** One table row: the server's memory now, from /proc and the probe file. */
async function memoryRow(pid: number, server: BenchServer, probeFile: string, at: string, rate: string) {
  const map = await memoryMap(pid);
  const peak = await server.peakRssMiB();
  const heaps = threadHeaps(probeFile);
  const main = heaps.find((h) => h.main);
  const workers = heaps.filter((h) => !h.main);
  const mib = (bytes: number | undefined) => (bytes === undefined ? "?" : (bytes / MiB).toFixed(0));
  const sum = (key: "heapTotal" | "heapUsed") => workers.reduce((s, w) => s + w[key], 0);
  return [
    at,
    rate,
    mib(map?.rss),
    peak?.toFixed(0) ?? "?",
    main ? `${mib(main.heapTotal)} (${mib(main.heapUsed)})` : "?",
    `${mib(sum("heapTotal"))} (${mib(sum("heapUsed"))}) ×${workers.length}`,
    main ? mib(main.external) : "?",
    map ? mib(map.brk + map.arenas) : "?",
    String(map?.arenaCount ?? "?"),
    mib(map?.otherAnon),
    mib(map?.files),
  ];
}

/** Counts "config reloaded" lines and keeps warn/error lines other than per-request ones. */
function countLog(server: BenchServer, so: { reloaded: number; problems: string[] }) {
  for (const line of server.takeLog()) {
    if (line.msg === "config reloaded") so.reloaded++;
    else if (line.level !== "info" && !("status" in line))
      so.problems.push(JSON.stringify(line).slice(0, 300));
  }
  return so;
}

function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  const output = (error as { output?: string }).output;
  if (output) console.error(output);
  process.exit(1);
});
