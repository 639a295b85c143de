/**
 * Full-check bench of the HTTP server: every guardrail on, ~60-word texts.
 * `npm run bench:full [-- --seconds 10] [--requests 500] [--warmup 2000] [--cold-runs 5] [--json] [--cpu-prof]
 *   [--input-only] [--root DIR] [--encoder-texts 240] [--budget SECONDS]`
 *
 * Two temp config dirs (one API key stored as its SHA-256, one app each): INPUT-ALL (llm, vector,
 * keyword, regex, pii; default thresholds) and OUTPUT-ALL (content_moderation, keyword, regex, pii,
 * system_prompt_protection with a ~150-word system prompt and a canary). For each, the real server
 * (`node bin/guardrail.js serve --port 0`, on 127.0.0.1) is started fresh, so peak RSS is per profile.
 *
 * 1. Cold start: spawn → first successful input-check answer, `--cold-runs` times (model cached).
 * 2. Unloaded: one keep-alive connection, `--requests` sequential checks, timed client-side with
 *    performance.now() (sub-ms), once the server has answered `--warmup` sequential requests
 *    (default 2,000). A fresh process is still compiling its hot code (V8 tiers a function up
 *    only after many calls; per 300 input-checks the server's CPU falls from ~6 to ~4 ms over the
 *    first ~2,000), so the same number of requests just after 50 warm-up ones is measured too
 *    and reported as its own row, "fresh process": a server's cost per request is the one after.
 * 3. Load: autocannon, 8 and 32 connections, `--seconds` each (after a 2 s warm-up).
 * 4. Peak RSS: VmHWM of the server process after its runs.
 * 5. The fp32 encoder's own CPU time for the same texts (bench/lib/encoder-cpu.ts: what each
 *    profile embeds of them, INPUT-ALL's windows and pieces, OUTPUT-ALL's windows and
 *    system_prompt_protection's sentences), and each profile's CPU per request over it: what
 *    everything around the encoder costs. With int8, the ratio is still over the fp32 encoder.
 *
 * `--root DIR` runs another checkout's built server and encoder with this bench (before/after
 * runs from one bench); `--input-only` skips OUTPUT-ALL.
 *
 * `--cpu-prof` instead runs each server under `node --cpu-prof`, loads it at 8 connections for
 * `--seconds`, and prints the top self-time functions of that window.
 * Targets: unloaded input-check p50 ≤ 10 ms, p99 ≤ 25 ms; ≥ 150 input-checks/s at 8 connections;
 * cold start ≤ 2 s; RSS ≤ 500 MB; CPU per request over the fp32 encoder's own ≤ 1.0 (input-check)
 * and ≤ 1.3 (output-check), issue 25's, which allows the int8 encoder.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import { benchArgs } from "./lib/args.js";
import { type LoadRequest, type LoadResult, load } from "./lib/autocannon.js";
import { type BenchConfig, checkHeaders, writeConfigDir } from "./lib/config.js";
import { type EncoderCpu, measureEncoderCpu } from "./lib/encoder-cpu.js";
import { type LogLine, ROOT, removeOnExit, ServerStartError, spawnServer, staleDist } from "./lib/server.js";
import { percentile, table } from "./lib/stats.js";
import { CANARY, INPUT_TEXTS, OUTPUT_TEXTS, SYSTEM_PROMPT } from "./lib/texts.js";

const PATHS = {
  input: "/apikey/api/guardrail/v1/input-check",
  output: "/apikey/api/guardrail/v1/output-check",
} as const;
const GUARDRAILS = {
  input: ["llm", "vector", "keyword", "regex", "pii"],
  output: ["content_moderation", "keyword", "regex", "pii", "system_prompt_protection"],
} as const;
type Mode = keyof typeof PATHS;
const PROFILE = { input: "INPUT-ALL", output: "OUTPUT-ALL" } as const;
// 500 MB = 476.8 MiB.
// The encoder ratios are issue 25's: a full check's CPU over the fp32 encoder's own for the same texts.
const TARGETS = {
  p50: 10,
  p99: 25,
  rps8: 150,
  coldMs: 2000,
  rssMiB: 500 / 1.048576,
  inputEncoderRatio: 1.0,
  outputEncoderRatio: 1.3,
};
/** Requests before the fresh-process run (the models loaded, the first code compiled). */
const FIRST_REQUESTS = 50;

const values = benchArgs("npm run bench:full [-- flags]", {
  seconds: { type: "string", default: "10" },
  requests: { type: "string", default: "500" },
  warmup: { type: "string", default: "2000" },
  "cold-runs": { type: "string", default: "5" },
  json: { type: "boolean", default: false },
  "cpu-prof": { type: "boolean", default: false },
  top: { type: "string", default: "8" },
  "input-only": { type: "boolean", default: false },
  root: { type: "string" },
  "encoder-texts": { type: "string", default: "240" },
  budget: { type: "string" },
  precision: { type: "string", default: "both" },
});
const PRECISIONS = { both: ["fp32", "int8"], fp32: ["fp32"], int8: ["int8"] } as const;
type Precision = "fp32" | "int8";
if (!Object.hasOwn(PRECISIONS, values.precision)) {
  console.error(`--precision must be fp32, int8 or both, not "${values.precision}"`);
  process.exit(2);
}
const options = {
  seconds: Number(values.seconds),
  requests: Number(values.requests),
  warmup: Number(values.warmup),
  coldRuns: Number(values["cold-runs"]),
  json: values.json,
  cpuProf: values["cpu-prof"],
  top: Number(values.top),
  modes: values["input-only"] ? (["input"] as const) : (["input", "output"] as const),
  root: values.root ? resolve(values.root) : ROOT.pathname.replace(/\/$/, ""),
  encoderTexts: Number(values["encoder-texts"]),
  budgetSeconds: values.budget === undefined ? undefined : Number(values.budget),
  precisions: PRECISIONS[values.precision as keyof typeof PRECISIONS] as readonly Precision[],
};
const counts = {
  seconds: options.seconds,
  requests: options.requests,
  "cold-runs": options.coldRuns,
  top: options.top,
  "encoder-texts": options.encoderTexts,
  budget: options.budgetSeconds ?? 1,
};
for (const [name, value] of Object.entries(counts)) {
  if (!(Number.isInteger(value) && value > 0)) {
    console.error(`--${name} must be a positive integer`);
    process.exit(2);
  }
}
// 0: the unloaded run follows the fresh-process one at once (the protocol before 2026-11-30).
if (!(Number.isInteger(options.warmup) && options.warmup >= 0)) {
  console.error("--warmup must be a whole number of requests, 0 or more");
  process.exit(2);
}
/** Progress and tables go to stderr under --json, so stdout is only the JSON document. */
const say = (line = "") => (options.json ? process.stderr : process.stdout).write(`${line}\n`);

/** A request body and what it is, for the per-variant rows. */
interface Sample {
  readonly variant: string;
  readonly body: string;
}

/**
 * Every request's text is made distinct by a reference appended to it (`[<id>]`: a counter for the
 * sequential runs, a random id from autocannon under load). The server keeps the vectors of the
 * last 4,096 windows it embedded (for streamed responses), so a bench repeating 20 texts measured
 * that cache, not the encoder: 767 input-checks/s at 8 connections, against 162 with distinct texts. No two real
 * prompts are alike.
 */
const ID = "[<id>]";
let nextId = 1000;
const distinct = (body: string) => body.replace(ID, String(nextId++));

function samples(mode: Mode): Sample[] {
  const ref = (message: string) => `${message} (ref ${ID})`;
  if (mode === "input")
    return INPUT_TEXTS.map((message) => ({ variant: "", body: JSON.stringify({ message: ref(message) }) }));
  // Each response twice: once alone, once with the prompt that produced it.
  return OUTPUT_TEXTS.flatMap(({ prompt, response }) => [
    { variant: "without prompt", body: JSON.stringify({ message: ref(response) }) },
    { variant: "with prompt", body: JSON.stringify({ message: ref(response), prompt }) },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Config

async function buildConfigs(root: string): Promise<Record<Mode, BenchConfig>> {
  const bundled = parse(await readFile(join(options.root, "profiles/default.yaml"), "utf8"));
  // The bundled rules as written, on both sides: the default profile limits its injection
  // phrases to prompts (applies_to), and OUTPUT-ALL checks every output guardrail.
  const both = ({ applies_to: _, ...rules }: Record<string, unknown>) => rules;
  const keyword = both(bundled.guardrails.keyword);
  const regex = both(bundled.guardrails.regex);
  const { pii } = bundled.guardrails;
  const input = writeConfigDir(join(root, "input"), {
    [PROFILE.input]: {
      description: "every input guardrail on, default thresholds",
      guardrails: { llm: { enabled: true }, vector: { enabled: true }, keyword, regex, pii },
    },
  });
  const output = writeConfigDir(join(root, "output"), {
    [PROFILE.output]: {
      description: "every output guardrail on, default thresholds",
      guardrails: {
        content_moderation: { enabled: true },
        keyword,
        regex,
        pii,
        system_prompt_protection: { enabled: true, system_prompt: SYSTEM_PROMPT, canaries: [CANARY] },
      },
    },
  });
  return { input: await input, output: await output };
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Answer {
  status: number;
  ms: number;
  body: string;
  guardrailErrors: string | undefined;
}

/** One POST over `agent`, timed from before the request is written to the end of the response. */
function post(
  agent: Agent | false,
  url: string,
  path: string,
  headers: Record<string, string>,
  body: string,
) {
  return new Promise<Answer>((resolve, reject) => {
    const started = performance.now();
    const req = request(
      `${url}${path}`,
      { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const ms = performance.now() - started;
          const errors = res.headers["x-guardrail-errors"];
          resolve({
            status: res.statusCode ?? 0,
            ms,
            body: Buffer.concat(chunks).toString("utf8"),
            guardrailErrors: Array.isArray(errors) ? errors.join(",") : errors,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Stops the bench when the server answers anything but a full, error-free check. */
function requireFullAnswer(mode: Mode, answer: Answer): void {
  const fail = (why: string) => {
    throw new BenchError(`${PROFILE[mode]}: ${why}\nstatus ${answer.status}: ${answer.body.slice(0, 2000)}`);
  };
  if (answer.status !== 200) fail("the check did not succeed");
  if (answer.guardrailErrors) fail(`guardrails failed at run time: ${answer.guardrailErrors}`);
  const checks = (JSON.parse(answer.body) as { checks: Record<string, { enabled: boolean }> }).checks;
  const off = GUARDRAILS[mode].filter((id) => checks[id]?.enabled !== true);
  if (off.length > 0) fail(`guardrails not enabled in the answer: ${off.join(", ")}`);
}

class BenchError extends Error {}

// ---------------------------------------------------------------------------------------------
// Measurements

interface LatencyRow {
  label: string;
  n: number;
  p50: number;
  p99: number;
  max: number;
  /** The engine's own `execution_time` (guardrails only, no HTTP), p50 and p99 in ms. */
  engineP50: number;
  engineP99: number;
  flagged: number;
  non2xx: number;
  /** Server CPU time (all threads) per request: less sensitive to other load than wall time. */
  cpuMsPerRequest: number;
}

interface LoadRow {
  label: string;
  connections: number;
  seconds: number;
  rps: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  cpuMsPerRequest: number;
  /** Server CPU time over wall time: 1.0 is one core busy all the time. */
  serverCores: number;
}

interface ProfileRun {
  profile: string;
  mode: Mode;
  startupNotes: string[];
  listeningMs: number;
  idleRssMiB: number | undefined;
  /** The unloaded run, warm: after `--warmup` sequential requests. */
  unloaded: LatencyRow[];
  /** The same number of requests just after the first FIRST_REQUESTS: a process still compiling. */
  fresh: { fromRequest: number; cpuMsPerRequest: number };
  load: LoadRow[];
  peakRssMiB: number | undefined;
  /** Non-info request log lines during the runs (guardrail errors, 5xx), first few. */
  problems: string[];
}

function latencyRow(label: string, answers: readonly Answer[], cpuMs = Number.NaN): LatencyRow {
  const ok = answers.filter((a) => a.status === 200);
  const engine = ok.map((a) => (JSON.parse(a.body) as { execution_time: number }).execution_time * 1000);
  const ms = answers.map((a) => a.ms);
  return {
    label,
    n: answers.length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: Math.max(...ms),
    engineP50: percentile(engine, 50),
    engineP99: percentile(engine, 99),
    flagged: ok.filter((a) => (JSON.parse(a.body) as { injection_detected: boolean }).injection_detected)
      .length,
    non2xx: answers.length - ok.length,
    cpuMsPerRequest: cpuMs / answers.length,
  };
}

function notesOf(lines: readonly LogLine[]): string[] {
  return lines
    .filter((line) => line.level !== "info")
    .map(({ time: _time, level, msg, ...rest }) => {
      const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : "";
      return `${level}: ${msg}${extra}`;
    });
}

async function startOrExplain(
  mode: Mode,
  config: BenchConfig,
  logFile: string,
  nodeArgs: string[] = [],
  precision: Precision = "fp32",
) {
  try {
    const env = { GUARDRAIL_ENCODER_PRECISION: precision };
    return await spawnServer({ configDir: config.dir, logFile, nodeArgs, root: options.root, env });
  } catch (error) {
    if (error instanceof ServerStartError) {
      throw new BenchError(`${PROFILE[mode]}: ${error.message}; its output:\n${error.output}`);
    }
    throw error;
  }
}

async function coldStarts(config: BenchConfig, logFile: string, runs: number, precision: Precision) {
  const headers = checkHeaders(config, PROFILE.input);
  const body = JSON.stringify({ message: INPUT_TEXTS[0] });
  const results: { listeningMs: number; firstAnswerMs: number }[] = [];
  for (let run = 0; run < runs; run++) {
    const server = await startOrExplain("input", config, logFile, [], precision);
    try {
      const answer = await post(false, server.url, PATHS.input, headers, body);
      const firstAnswerMs = performance.now() - server.startedAt;
      requireFullAnswer("input", answer);
      results.push({ listeningMs: server.listeningMs, firstAnswerMs });
      say(
        `  cold start ${run + 1}/${runs}: listening after ${server.listeningMs.toFixed(0)} ms, first answer after ${firstAnswerMs.toFixed(0)} ms`,
      );
    } finally {
      await server.stop();
    }
  }
  return results;
}

/** Run while the server idles, just before the unloaded run and just before the load runs. */
interface Probes {
  readonly beforeUnloaded: () => Promise<void>;
  readonly beforeLoad: () => Promise<void>;
}

async function runProfile(
  mode: Mode,
  config: BenchConfig,
  logFile: string,
  precision: Precision,
  probes?: Probes,
): Promise<ProfileRun> {
  const profile = PROFILE[mode];
  const server = await startOrExplain(mode, config, logFile, [], precision);
  try {
    const startupNotes = notesOf(server.startupLog);
    for (const note of startupNotes) say(`  server ${note}`);
    const headers = checkHeaders(config, profile);
    const path = PATHS[mode];
    const texts = samples(mode);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const idleRssMiB = await server.rssMiB();

    let sent = 0;
    const sequential = async (count: number) => {
      const answers: { variant: string; answer: Answer }[] = [];
      for (let i = 0; i < count; i++) {
        const sample = texts[sent++ % texts.length] as Sample;
        answers.push({
          variant: sample.variant,
          answer: await post(agent, server.url, path, headers, distinct(sample.body)),
        });
      }
      return answers;
    };
    const [first] = await sequential(1);
    requireFullAnswer(mode, (first as { answer: Answer }).answer);
    await sequential(FIRST_REQUESTS - 1);
    const freshBefore = await server.cpuMs();
    await sequential(options.requests);
    const fresh = {
      fromRequest: FIRST_REQUESTS + 1,
      cpuMsPerRequest: ((await server.cpuMs()) - freshBefore) / options.requests,
    };
    await sequential(Math.max(0, options.warmup - sent));
    await probes?.beforeUnloaded();
    const cpuBefore = await server.cpuMs();
    const answers = await sequential(options.requests);
    const cpuMs = (await server.cpuMs()) - cpuBefore;
    agent.destroy();
    const unloaded = [
      latencyRow(
        `${mode}-check`,
        answers.map((a) => a.answer),
        cpuMs,
      ),
    ];
    for (const variant of new Set(answers.map((a) => a.variant).filter(Boolean))) {
      const some = answers.filter((a) => a.variant === variant).map((a) => a.answer);
      unloaded.push(latencyRow(`${mode}-check ${variant}`, some));
    }
    const problems = notesOf(server.takeLog());
    say(
      `  unloaded: ${options.requests} sequential ${mode}-checks from request ${fresh.fromRequest} (fresh process), ` +
        `then ${options.requests} more from request ${sent - options.requests + 1}`,
    );

    const requests: LoadRequest[] = texts.map((t) => ({ method: "POST", path, headers, body: t.body }));
    await probes?.beforeLoad();
    await load({ url: server.url, connections: 8, seconds: 2, requests }); // warm-up, not reported
    const loadRows: LoadRow[] = [];
    for (const connections of [8, 32]) {
      const cpuBefore = await server.cpuMs();
      const result: LoadResult = await load({
        url: server.url,
        connections,
        seconds: options.seconds,
        requests,
      });
      const cpuMs = (await server.cpuMs()) - cpuBefore;
      problems.push(...notesOf(server.takeLog()));
      loadRows.push({
        label: `${mode}-check`,
        connections,
        seconds: options.seconds,
        rps: result.requests.average,
        total: result.requests.total,
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        cpuMsPerRequest: cpuMs / Math.max(1, result.requests.total),
        serverCores: cpuMs / (options.seconds * 1000),
      });
      say(
        `  load: ${connections} connections, ${options.seconds} s: ${result.requests.average.toFixed(0)} req/s`,
      );
    }
    return {
      profile,
      mode,
      startupNotes,
      listeningMs: server.listeningMs,
      idleRssMiB,
      unloaded,
      fresh,
      load: loadRows,
      peakRssMiB: await server.peakRssMiB(),
      problems: problems.slice(0, 10),
    };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// CPU profile (--cpu-prof)

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (ms) over the samples taken between `fromUs` and `toUs` (monotonic µs). */
function selfTimes(profile: CpuProfile, fromUs: number, toUs: number) {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const totals = new Map<string, number>();
  let t = profile.startTime;
  let window = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t < fromUs || t > toUs) return;
    const frame = frames.get(id);
    const file = frame?.url
      ? frame.url.replace(`${pathToFileURL(options.root).href}/`, "").replace(/^.*node_modules\//, "")
      : "";
    const name = `${frame?.functionName || "(anonymous)"}${file ? ` ${file}:${(frame?.lineNumber ?? 0) + 1}` : ""}`;
    totals.set(name, (totals.get(name) ?? 0) + delta / 1000);
    window += delta / 1000;
  });
  const top = [...totals.entries()].sort((a, b) => b[1] - a[1]);
  return { windowMs: window, top };
}

async function cpuProfile(mode: Mode, config: BenchConfig, root: string) {
  const dir = join(root, `prof-${mode}`);
  const server = await startOrExplain(mode, config, join(root, "server.log"), [
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
  ]);
  let fromUs = 0;
  let toUs = 0;
  try {
    const headers = checkHeaders(config, PROFILE[mode]);
    const requests: LoadRequest[] = samples(mode).map((t) => ({
      method: "POST",
      path: PATHS[mode],
      headers,
      body: t.body,
    }));
    await load({ url: server.url, connections: 8, seconds: 2, requests });
    // V8's profile timestamps and process.hrtime are both CLOCK_MONOTONIC on Linux.
    fromUs = Number(process.hrtime.bigint() / 1000n);
    const result = await load({ url: server.url, connections: 8, seconds: options.seconds, requests });
    toUs = Number(process.hrtime.bigint() / 1000n);
    say(`${PROFILE[mode]}: ${result.requests.average.toFixed(0)} req/s at 8 connections under --cpu-prof`);
  } finally {
    await server.stop();
  }
  const file = (await readdir(dir)).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new BenchError(`${PROFILE[mode]}: the server wrote no CPU profile in ${dir}`);
  const profile = JSON.parse(await readFile(join(dir, file), "utf8")) as CpuProfile;
  let { windowMs, top } = selfTimes(profile, fromUs, toUs);
  if (windowMs === 0) ({ windowMs, top } = selfTimes(profile, 0, Number.POSITIVE_INFINITY));
  const rows = top
    .slice(0, options.top)
    .map(([name, ms]) => [name, ms.toFixed(0), `${((100 * ms) / windowMs).toFixed(1)}%`]);
  say(
    table(
      [`${PROFILE[mode]}: top self time over ${(windowMs / 1000).toFixed(1)} s of load`, "ms", "share"],
      rows,
    ),
  );
  say();
  return {
    profile: PROFILE[mode],
    windowMs,
    top: top.slice(0, options.top).map(([name, ms]) => ({ name, ms })),
  };
}

// ---------------------------------------------------------------------------------------------
// The encoder's share

/**
 * The texts a profile's runs send (prompts, or responses), with distinct references as the bench
 * sends them: a counter for the sequential runs, ids made as autocannon makes them (hyperid,
 * URL-safe, fixed length: 33 characters, which push every prompt past one window) for the load runs.
 */
function encoderTexts(n: number, mode: Mode) {
  const id = createRequire(createRequire(import.meta.url).resolve("autocannon"))("hyperid")({
    urlSafe: true,
    fixedLength: true,
  }) as () => string;
  const all = mode === "input" ? INPUT_TEXTS : OUTPUT_TEXTS.map((t) => t.response);
  const text = (i: number, ref: string) => `${all[i % all.length]} (ref ${ref})`;
  return {
    sequential: Array.from({ length: n }, (_, i) => text(i, String(900_000 + i))),
    load: Array.from({ length: n }, (_, i) => text(i, id())),
  };
}

const FRESH = "unloaded, fresh process";

/**
 * A profile's CPU per request over the encoder's own CPU per text for the same texts (what that
 * profile embeds of them: encoder-cpu-child.mjs): unloaded against the encoder alone on the
 * sequential texts, under load (both encoder workers busy) against two encoder processes at once
 * on the load texts.
 */
function encoderRatios(encoder: { alone: EncoderCpu; paired: EncoderCpu }, run: ProfileRun) {
  const unloaded = (run.unloaded[0] as LatencyRow).cpuMsPerRequest;
  const rows = [
    { label: "unloaded", cpu: unloaded, per: encoder.alone.msPerText },
    { label: FRESH, cpu: run.fresh.cpuMsPerRequest, per: encoder.alone.msPerText },
  ];
  for (const l of run.load)
    rows.push({
      label: `${l.connections} connections`,
      cpu: l.cpuMsPerRequest,
      per: encoder.paired.msPerText,
    });
  return rows.map((r) => ({
    label: r.label,
    cpuMsPerRequest: r.cpu,
    encoderMsPerText: r.per,
    ratio: r.cpu / r.per,
  }));
}

// ---------------------------------------------------------------------------------------------
// Report

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "n/a");
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const mib = (x: number | undefined) => (x === undefined ? "n/a" : `${x.toFixed(0)} MiB`);
const mark = (ok: boolean) => (ok ? "ok" : "MISSED");

function loadAverage(): string {
  return spawnSync("uptime", { encoding: "utf8" }).stdout.trim();
}

/** One precision's pass: cold starts, both profiles, and the encoder probes beside INPUT-ALL's runs. */
interface PrecisionRun {
  precision: Precision;
  machine: { before: string; after: string };
  coldStart: { runs: number; listeningMedianMs: number; medianMs: number; maxMs: number };
  profiles: ProfileRun[];
  /**
   * The fp32 encoder's own CPU (the reference) on INPUT-ALL's texts, and with int8 the int8
   * encoder's too; `outputEncoder` the same on OUTPUT-ALL's (absent with --input-only).
   */
  encoder: EncoderShare;
  encoderRatios: ReturnType<typeof encoderRatios>;
  outputEncoder?: EncoderShare;
  outputRatios?: ReturnType<typeof encoderRatios>;
}

interface EncoderShare {
  texts: number;
  alone: EncoderCpu;
  paired: EncoderCpu;
  own?: { alone: EncoderCpu; paired: EncoderCpu };
}

async function measure(
  precision: Precision,
  configs: Record<Mode, BenchConfig>,
  root: string,
  logFile: string,
): Promise<PrecisionRun> {
  const before = loadAverage();
  say(`${precision}: machine ${before}`);
  say(`${precision}: cold start (${PROFILE.input}, ${options.coldRuns} runs)`);
  const cold = await coldStarts(configs.input, logFile, options.coldRuns, precision);
  const runs: ProfileRun[] = [];
  // The encoder's own CPU, measured next to the runs it is compared with: this machine's load
  // changes. The reference is always the fp32 encoder (issue 25); an int8 pass also measures its own.
  const wanted: Precision[] = precision === "fp32" ? ["fp32"] : ["fp32", "int8"];
  const shares: Partial<Record<Mode, EncoderShare>> = {};
  for (const mode of options.modes) {
    const texts = encoderTexts(options.encoderTexts, mode);
    const cpu = { alone: [] as EncoderCpu[], paired: [] as EncoderCpu[] };
    const probe = (list: readonly string[], processes: 1 | 2, into: EncoderCpu[]) => async () => {
      for (const p of wanted)
        into.push(await measureEncoderCpu(options.root, list, root, processes, p, mode));
    };
    const probes: Probes = {
      beforeUnloaded: probe(texts.sequential, 1, cpu.alone),
      beforeLoad: probe(texts.load, 2, cpu.paired),
    };
    say(`${precision}: ${PROFILE[mode]}`);
    runs.push(await runProfile(mode, configs[mode], logFile, precision, probes));
    const [alone, ownAlone] = cpu.alone as [EncoderCpu, EncoderCpu?];
    const [paired, ownPaired] = cpu.paired as [EncoderCpu, EncoderCpu?];
    shares[mode] = {
      texts: options.encoderTexts,
      alone,
      paired,
      ...(ownAlone && ownPaired ? { own: { alone: ownAlone, paired: ownPaired } } : {}),
    };
  }
  const encoder = shares.input as EncoderShare;
  const outputRun = runs.find((r) => r.mode === "output");
  const firstAnswer = cold.map((c) => c.firstAnswerMs);
  return {
    precision,
    machine: { before, after: loadAverage() },
    coldStart: {
      runs: cold.length,
      listeningMedianMs: percentile(
        cold.map((c) => c.listeningMs),
        50,
      ),
      medianMs: percentile(firstAnswer, 50),
      maxMs: Math.max(...firstAnswer),
    },
    profiles: runs,
    encoder,
    encoderRatios: encoderRatios(encoder, runs[0] as ProfileRun),
    ...(shares.output && outputRun
      ? { outputEncoder: shares.output, outputRatios: encoderRatios(shares.output, outputRun) }
      : {}),
  };
}

function report(run: PrecisionRun) {
  const { precision, coldStart: coldRow, profiles: runs, encoder, encoderRatios: ratios } = run;
  const input = runs[0] as ProfileRun;
  const inputUnloaded = input.unloaded[0] as LatencyRow;
  const input8 = input.load.find((l) => l.connections === 8) as LoadRow;
  const peak = Math.max(...runs.map((r) => r.peakRssMiB ?? 0));
  const targets = {
    unloadedInputP50: { value: inputUnloaded.p50, target: TARGETS.p50, ok: inputUnloaded.p50 <= TARGETS.p50 },
    unloadedInputP99: { value: inputUnloaded.p99, target: TARGETS.p99, ok: inputUnloaded.p99 <= TARGETS.p99 },
    inputRps8: { value: input8.rps, target: TARGETS.rps8, ok: input8.rps >= TARGETS.rps8 },
    coldStartMedianMs: {
      value: coldRow.medianMs,
      target: TARGETS.coldMs,
      ok: coldRow.medianMs <= TARGETS.coldMs,
    },
    peakRssMiB: { value: peak, target: TARGETS.rssMiB, ok: peak <= TARGETS.rssMiB },
  };

  say();
  say(`=== encoder ${precision} (GUARDRAIL_ENCODER_PRECISION=${precision}) ===`);
  say(`machine before: ${run.machine.before}`);
  say(`machine after:  ${run.machine.after}`);
  say();
  say(
    table(
      [
        `${precision}: cold start (spawn → first input-check answer)`,
        "runs",
        "listening ms (median)",
        "median ms",
        "max ms",
        "target",
      ],
      [
        [
          PROFILE.input,
          String(coldRow.runs),
          coldRow.listeningMedianMs.toFixed(0),
          coldRow.medianMs.toFixed(0),
          coldRow.maxMs.toFixed(0),
          `≤ 2000 ${mark(targets.coldStartMedianMs.ok)}`,
        ],
      ],
    ),
  );
  say();
  say(
    table(
      [
        `${precision}: unloaded (1 connection, sequential)`,
        "n",
        "p50 ms",
        "p99 ms",
        "max ms",
        "engine p50",
        "engine p99",
        "CPU ms/req",
        "flagged",
        "non-2xx",
      ],
      runs.flatMap((r) =>
        r.unloaded.map((u) => [
          u.label,
          String(u.n),
          f2(u.p50),
          f2(u.p99),
          f2(u.max),
          f2(u.engineP50),
          f2(u.engineP99),
          f2(u.cpuMsPerRequest),
          `${((100 * u.flagged) / Math.max(1, u.n - u.non2xx)).toFixed(0)}%`,
          String(u.non2xx),
        ]),
      ),
    ),
  );
  say(
    `  input-check targets: p50 ≤ 10 ms ${mark(targets.unloadedInputP50.ok)}, p99 ≤ 25 ms ${mark(targets.unloadedInputP99.ok)}`,
  );
  say();
  say(
    table(
      [
        `${precision}: load (autocannon)`,
        "conns",
        "req/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "errors",
        "non-2xx",
        "CPU ms/req",
        "server cores",
      ],
      runs.flatMap((r) =>
        r.load.map((l) => [
          l.label,
          String(l.connections),
          f1(l.rps),
          String(l.p50),
          String(l.p99),
          String(l.max),
          String(l.errors),
          String(l.non2xx),
          f2(l.cpuMsPerRequest),
          f2(l.serverCores),
        ]),
      ),
    ),
  );
  say(`  input-check target: ≥ 150 req/s at 8 connections ${mark(targets.inputRps8.ok)}`);
  say();
  say(
    table(
      [`${precision}: server memory`, "RSS after start", "peak RSS (VmHWM)", "target"],
      runs.map((r) => [
        r.profile,
        mib(r.idleRssMiB),
        mib(r.peakRssMiB),
        `≤ 500 MB ${mark((r.peakRssMiB ?? 0) <= TARGETS.rssMiB)}`,
      ]),
    ),
  );
  for (const r of runs) {
    for (const problem of r.problems) say(`${r.profile} server logged ${problem}`);
  }
  say();
  const shares = [
    { profile: PROFILE.input, share: encoder, ratios, target: TARGETS.inputEncoderRatio },
    ...(run.outputEncoder && run.outputRatios
      ? [
          {
            profile: PROFILE.output,
            share: run.outputEncoder,
            ratios: run.outputRatios,
            target: TARGETS.outputEncoderRatio,
          },
        ]
      : []),
  ];
  for (const { profile, share, ratios: rows, target } of shares) {
    say();
    say(
      table(
        [
          `${precision}: ${profile} CPU per request ÷ the fp32 encoder's own CPU per text`,
          "CPU ms/req",
          "fp32 encoder ms/text",
          "ratio",
          "target (issue 25)",
        ],
        rows.map((r) => [
          r.label,
          f2(r.cpuMsPerRequest),
          f2(r.encoderMsPerText),
          f2(r.ratio),
          r.label === FRESH ? "–" : `≤ ${target} ${mark(r.ratio <= target)}`,
        ]),
      ),
    );
    const what = profile === PROFILE.input ? "windows/pieces" : "windows/sentences";
    say(
      `  fp32 encoder's own CPU (${share.texts} texts): sequential texts ${f2(share.alone.msPerText)} ms alone ` +
        `(${f2(share.alone.windowsMsPerText)} ms of it the windows), ${f2(share.alone.embeddedPerText)} ${what} embedded per text; ` +
        `load texts ${f2(share.paired.msPerText)} ms, two processes at once, ${f2(share.paired.embeddedPerText)} embedded per text`,
    );
    if (share.own)
      say(
        `  ${precision} encoder's own CPU, same texts: ${f2(share.own.alone.msPerText)} ms alone, ` +
          `${f2(share.own.paired.msPerText)} ms two processes at once ` +
          `(${f2(share.own.alone.msPerText / share.alone.msPerText)}× / ${f2(share.own.paired.msPerText / share.paired.msPerText)}× the fp32 encoder)`,
      );
  }
  return targets;
}

/**
 * One row per precision, side by side: what issue 25 compares. Every ratio is over the **fp32**
 * encoder's own CPU per text for the same texts, measured in the same pass (the fp32 row is the
 * reference); the encoder column gives that figure and this precision's own.
 */
function comparison(passes: readonly PrecisionRun[]) {
  const rows = passes.map((run) => {
    const [input, output] = run.profiles as [ProfileRun, ProfileRun?];
    const at = (r: ProfileRun | undefined, c: number) => r?.load.find((l) => l.connections === c);
    const ratio = (ratios: PrecisionRun["encoderRatios"] | undefined, label: string) =>
      ratios?.find((r) => r.label === label)?.ratio ?? Number.NaN;
    const side = (r: ProfileRun | undefined, ratios: PrecisionRun["encoderRatios"] | undefined) => ({
      cpuMsPerRequest: r?.unloaded[0]?.cpuMsPerRequest ?? Number.NaN,
      ratioUnloaded: ratio(ratios, "unloaded"),
      ratioFresh: ratio(ratios, FRESH),
      ratio8: ratio(ratios, "8 connections"),
      ratio32: ratio(ratios, "32 connections"),
      rps8: at(r, 8)?.rps ?? Number.NaN,
      rps32: at(r, 32)?.rps ?? Number.NaN,
      peakRssMiB: r?.peakRssMiB,
    });
    return {
      encoder: run.precision,
      input: side(input, run.encoderRatios),
      output: side(output, run.outputRatios),
      fp32EncoderMsPerText: {
        input: run.encoder.alone.msPerText,
        output: run.outputEncoder?.alone.msPerText,
      },
      encoderMsPerText: {
        input: (run.encoder.own ?? run.encoder).alone.msPerText,
        output: (run.outputEncoder?.own ?? run.outputEncoder)?.alone.msPerText,
      },
      coldStartMedianMs: run.coldStart.medianMs,
    };
  });
  const opt = (x: number | undefined) => f2(x ?? Number.NaN);
  say();
  say(
    table(
      [
        "check (÷ = CPU per request over the fp32 encoder's own CPU per text, same texts, same pass)",
        "encoder",
        "CPU ms/req",
        "÷ unloaded",
        "÷ fresh process",
        "÷ 8 / 32 conns",
        "target",
        "req/s 8 / 32",
        "encoder ms/text (own / fp32)",
        "peak RSS",
        "cold start ms",
      ],
      rows.flatMap((r) =>
        (["input", "output"] as const)
          .filter((mode) => options.modes.includes(mode as never))
          .map((mode) => {
            const x = r[mode];
            const target = mode === "input" ? TARGETS.inputEncoderRatio : TARGETS.outputEncoderRatio;
            return [
              `${mode}-check`,
              r.encoder === "fp32" ? "fp32 (reference)" : r.encoder,
              f2(x.cpuMsPerRequest),
              f2(x.ratioUnloaded),
              f2(x.ratioFresh),
              `${f2(x.ratio8)} / ${f2(x.ratio32)}`,
              `≤ ${target} ${mark(x.ratioUnloaded <= target)}`,
              `${f1(x.rps8)} / ${f1(x.rps32)}`,
              `${opt(r.encoderMsPerText[mode])} / ${opt(r.fp32EncoderMsPerText[mode])}`,
              mib(x.peakRssMiB),
              mode === "input" ? r.coldStartMedianMs.toFixed(0) : "",
            ];
          }),
      ),
    ),
  );
  return rows;
}

async function main(): Promise<void> {
  // The encoder probes embed 3 × --encoder-texts texts at ~5 ms each; a loaded machine needs --budget.
  const passes = options.precisions.length;
  const computed =
    150 +
    passes *
      (8 * options.seconds +
        (options.requests / 500) * 30 +
        options.encoderTexts * 0.05 +
        options.modes.length * options.warmup * 0.012 +
        30);
  const budgetMs = (options.budgetSeconds ?? computed) * 1000;
  setTimeout(() => {
    console.error(`bench: over its time budget (${(budgetMs / 1000).toFixed(0)} s); stopping`);
    process.exit(1); // the exit hook kills the servers and removes the temp dir
  }, budgetMs).unref();

  const stale = await staleDist(options.root);
  if (stale.length > 0) {
    say(`dist/ is stale (${stale.length} files, e.g. ${stale.slice(0, 3).join(", ")}): npm run build`);
    const build = spawnSync("npm", ["run", "build"], { cwd: options.root, encoding: "utf8" });
    if (build.status !== 0) throw new BenchError(`npm run build failed:\n${build.stdout}${build.stderr}`);
  }
  // A checkout without the int8 file (one from before it existed) would silently serve fp32.
  for (const file of options.precisions.map((p) => (p === "int8" ? "use-lite-int8.onnx" : "use-lite.onnx"))) {
    const model = join(options.root, "models/use-lite", file);
    if (!existsSync(model)) {
      throw new BenchError(
        `${model} is missing: run \`npm run build:models\` there (or pass --precision fp32 for a checkout without the int8 encoder)`,
      );
    }
  }

  const root = await mkdtemp(join(tmpdir(), "guardrail-bench-full-"));
  removeOnExit(root);
  const configs = await buildConfigs(root);
  const logFile = join(root, "server.log");

  if (options.cpuProf) {
    say(`machine: ${loadAverage()}`);
    const profiles = [];
    for (const mode of options.modes) profiles.push(await cpuProfile(mode, configs[mode], root));
    say(`machine after: ${loadAverage()}`);
    if (options.json) process.stdout.write(`${JSON.stringify({ cpuProfiles: profiles }, null, 2)}\n`);
    return;
  }

  const words = (t: string) => t.split(/\s+/).length;
  const inputWords = INPUT_TEXTS.map(words);
  const outputWords = OUTPUT_TEXTS.map((t) => words(t.response));
  say(
    `texts: ${INPUT_TEXTS.length} prompts of ${Math.min(...inputWords)}–${Math.max(...inputWords)} words, ` +
      `${OUTPUT_TEXTS.length} responses of ${Math.min(...outputWords)}–${Math.max(...outputWords)} words (each with and without its prompt); system prompt ${words(SYSTEM_PROMPT)} words`,
  );

  const results: PrecisionRun[] = [];
  for (const precision of options.precisions) results.push(await measure(precision, configs, root, logFile));
  const targets = results.map((run) => ({ encoder: run.precision, ...report(run) }));
  const rows = comparison(results);

  if (options.json) {
    const json = { options, passes: results, comparison: rows, targets };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  }
}

try {
  await main();
} catch (error) {
  if (!(error instanceof BenchError)) throw error;
  console.error(`bench stopped: ${error.message}`);
  process.exitCode = 1;
}
