/**
 * Adversarial-input bench of the HTTP server: what one hostile request costs, and what it does to
 * everyone else. `npx tsx bench/adversarial.ts [--runs 3] [--seconds 10] [--size 100000] [--json]`
 *
 * One temp config dir, the bundled `default` profile (input-check) and `strict` profile
 * (output-check, system_prompt_protection included), default limits; the real server
 * (`node bin/guardrail.js serve`, dist/ must be built) on 127.0.0.1.
 *
 * 1. Alone: each text of bench/lib/adversarial-texts.ts (issue 9's texts and other hostile shapes,
 *    `--size` characters) through input-check and output-check, median of `--runs`, with its
 *    ratio to plain English of the same length. Targets: every answer ≤ 1 s and ≤ 10× English.
 * 2. Under attack: 4 clients send the costliest texts back to back for `--seconds` while a probe
 *    alternates GET /healthz and a small input-check every 50 ms. Target: both ≤ 100 ms.
 * 3. Disconnect: a client sends the costliest text and goes away after 150 ms; the server's CPU
 *    time (all threads, /proc) shows when its work stops. Target: within 100 ms of the disconnect.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { hostileTexts } from "./lib/adversarial-texts.js";
import { benchArgs } from "./lib/args.js";
import { checkHeaders, writeConfigDir } from "./lib/config.js";
import { type BenchServer, ROOT, removeOnExit, spawnServer, staleDist } from "./lib/server.js";
import { median, percentile, table } from "./lib/stats.js";

const PATHS = {
  input: "/apikey/api/guardrail/v1/input-check",
  output: "/apikey/api/guardrail/v1/output-check",
} as const;
const TARGETS = { aloneMs: 1000, ratio: 10, probeMs: 100, stopMs: 100 };

const values = benchArgs("npx tsx bench/adversarial.ts [--runs 3] [--seconds 10] [--size 100000] [--json]", {
  runs: { type: "string", default: "3" },
  seconds: { type: "string", default: "10" },
  size: { type: "string", default: "100000" },
  json: { type: "boolean", default: false },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const size = Number(values.size);
const say = (line = "") => (values.json ? process.stderr : process.stdout).write(`${line}\n`);

interface Answer {
  status: number;
  ms: number;
  body: string;
}

function post(url: string, path: string, headers: Record<string, string>, body: string, agent?: Agent) {
  return new Promise<Answer>((resolve, reject) => {
    const started = performance.now();
    const req = request(
      `${url}${path}`,
      {
        method: "POST",
        agent: agent ?? false,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function get(url: string, path: string, agent: Agent) {
  return new Promise<Answer>((resolve, reject) => {
    const started = performance.now();
    request(`${url}${path}`, { agent }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: "" }),
      );
    })
      .on("error", reject)
      .end();
  });
}

async function main() {
  const stale = await staleDist();
  if (stale.length > 0) throw new Error(`dist/ is stale (${stale[0]} …): run \`npm run build\` first`);
  const root = await mkdtemp(join(tmpdir(), "guardrail-adversarial-"));
  removeOnExit(root);
  const profile = async (name: string) => {
    const {
      name: _n,
      default: _d,
      ...rest
    } = parse(await readFile(new URL(`profiles/${name}.yaml`, ROOT), "utf8"));
    return rest;
  };
  const config = await writeConfigDir(join(root, "config"), {
    default: await profile("default"),
    strict: await profile("strict"),
  });
  const server = await spawnServer({ configDir: config.dir, logFile: join(root, "server.log") });
  try {
    const result = {
      alone: await alone(server, config),
      underAttack: undefined as unknown,
      disconnect: undefined as unknown,
    };
    const costliest = [...result.alone]
      .filter((r) => r.inputStatus === 200)
      .sort((a, b) => b.inputMs - a.inputMs)
      .slice(0, 4)
      .map((r) => r.text);
    result.underAttack = await underAttack(server, config, costliest);
    result.disconnect = await disconnect(server, config, costliest[0] as string);
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await server.stop();
  }
}

async function alone(server: BenchServer, config: Awaited<ReturnType<typeof writeConfigDir>>) {
  const texts = hostileTexts(size);
  const headers = { input: checkHeaders(config, "default"), output: checkHeaders(config, "strict") };
  // Warm-up: the first long text also warms the text lane.
  await post(server.url, PATHS.input, headers.input, JSON.stringify({ message: texts[0]?.text }));
  const rows = [];
  for (const { name, text, why } of texts) {
    const measure = async (mode: "input" | "output") => {
      const answers: Answer[] = [];
      for (let i = 0; i < runs; i++) {
        answers.push(await post(server.url, PATHS[mode], headers[mode], JSON.stringify({ message: text })));
      }
      return {
        ms: median(answers.map((a) => a.ms)),
        status: answers[0]?.status ?? 0,
        body: answers[0]?.body ?? "",
      };
    };
    const cpuBefore = await server.cpuMs();
    const input = await measure("input");
    const cpuMs = ((await server.cpuMs()) - cpuBefore) / runs;
    const output = await measure("output");
    rows.push({
      name,
      why,
      text,
      chars: [...text].length,
      inputStatus: input.status,
      inputMs: input.ms,
      inputCpuMs: cpuMs,
      outputStatus: output.status,
      outputMs: output.ms,
      error: input.status === 200 ? undefined : input.body,
    });
    say(
      `  ${name}: input ${input.status} ${input.ms.toFixed(0)} ms, output ${output.status} ${output.ms.toFixed(0)} ms`,
    );
  }
  const english = rows[0] as (typeof rows)[number];
  say();
  say(
    `1. One request alone (${size.toLocaleString("en")} characters, median of ${runs}; targets ≤ ${TARGETS.aloneMs} ms and ≤ ${TARGETS.ratio}× English)`,
  );
  say(
    table(
      ["text", "status", "input-check", "× English", "server CPU", "output-check", "× English"],
      rows.map((r) => [
        r.name,
        r.inputStatus === 200 ? "200" : `${r.inputStatus}`,
        `${r.inputMs.toFixed(0)} ms`,
        (r.inputMs / english.inputMs).toFixed(2),
        `${r.inputCpuMs.toFixed(0)} ms`,
        `${r.outputMs.toFixed(0)} ms`,
        (r.outputMs / english.outputMs).toFixed(2),
      ]),
    ),
  );
  const worst = Math.max(...rows.map((r) => Math.max(r.inputMs, r.outputMs)));
  say(`   slowest answer ${worst.toFixed(0)} ms: ${worst <= TARGETS.aloneMs ? "met" : "MISSED"}`);
  for (const r of rows.filter((r) => r.error)) say(`   ${r.name}: ${r.error}`);
  return rows.map(({ text: _t, ...r }) => r).map((r, i) => ({ ...r, text: texts[i]?.text as string }));
}

async function underAttack(
  server: BenchServer,
  config: Awaited<ReturnType<typeof writeConfigDir>>,
  texts: readonly string[],
) {
  const headers = checkHeaders(config, "default");
  let stop = false;
  let attacks = 0;
  const attackers = texts.map(async (text) => {
    const body = JSON.stringify({ message: text });
    while (!stop) {
      await post(server.url, PATHS.input, headers, body);
      attacks++;
    }
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const small = JSON.stringify({ message: "What is the capital of France?" });
  const health: number[] = [];
  const checks: number[] = [];
  await new Promise((r) => setTimeout(r, 500)); // all four under way
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    health.push((await get(server.url, "/healthz", agent)).ms);
    checks.push((await post(server.url, PATHS.input, headers, small, agent)).ms);
    await new Promise((r) => setTimeout(r, 50));
  }
  stop = true;
  await Promise.all(attackers);
  agent.destroy();
  const row = (label: string, ms: number[]) => [
    label,
    `${ms.length}`,
    `${percentile(ms, 50).toFixed(1)} ms`,
    `${percentile(ms, 99).toFixed(1)} ms`,
    `${Math.max(...ms).toFixed(1)} ms`,
  ];
  say();
  say(
    `2. While 4 clients send the costliest texts back to back (${seconds} s, ${attacks} hostile requests answered; target ≤ ${TARGETS.probeMs} ms)`,
  );
  say(
    table(
      ["probe", "n", "p50", "p99", "max"],
      [row("GET /healthz", health), row("small input-check", checks)],
    ),
  );
  return {
    attacks,
    healthz: { p50: percentile(health, 50), p99: percentile(health, 99), max: Math.max(...health) },
    smallCheck: { p50: percentile(checks, 50), p99: percentile(checks, 99), max: Math.max(...checks) },
  };
}

async function disconnect(
  server: BenchServer,
  config: Awaited<ReturnType<typeof writeConfigDir>>,
  text: string,
) {
  const headers = checkHeaders(config, "default");
  const body = JSON.stringify({ message: text });
  const trials = [];
  for (let trial = 0; trial < 5; trial++) {
    await new Promise((r) => setTimeout(r, 500));
    const full = await server.cpuMs();
    await post(server.url, PATHS.input, headers, body);
    const requestCpu = (await server.cpuMs()) - full;
    await new Promise((r) => setTimeout(r, 300));
    const req = request(`${server.url}${PATHS.input}`, {
      method: "POST",
      agent: false,
      headers: { ...headers, "content-length": Buffer.byteLength(body) },
    });
    req.on("error", () => {});
    req.end(body);
    await new Promise((r) => setTimeout(r, 150));
    req.destroy();
    const gone = performance.now();
    // CPU time sampled every 10 ms: work has stopped once 100 ms pass with under 10 ms of CPU.
    const samples: { at: number; cpu: number }[] = [];
    while (performance.now() - gone < 1500) {
      samples.push({ at: performance.now() - gone, cpu: await server.cpuMs() });
      await new Promise((r) => setTimeout(r, 10));
    }
    const first = samples[0] as { cpu: number };
    let stoppedAt = Number.NaN;
    for (const s of samples) {
      const later = samples.find((t) => t.at >= s.at + 100);
      if (later && later.cpu - s.cpu < 10) {
        stoppedAt = s.at;
        break;
      }
    }
    const after = (samples.at(-1) as { cpu: number }).cpu - first.cpu;
    trials.push({ stoppedAfterMs: stoppedAt, cpuAfterDisconnectMs: after, fullRequestCpuMs: requestCpu });
  }
  say();
  say(
    `3. A client that disconnects 150 ms into the costliest text (5 trials; target: work stops ≤ ${TARGETS.stopMs} ms after)`,
  );
  say(
    table(
      ["trial", "work stopped after", "server CPU after disconnect", "CPU of the whole request"],
      trials.map((t, i) => [
        `${i + 1}`,
        `${t.stoppedAfterMs.toFixed(0)} ms`,
        `${t.cpuAfterDisconnectMs.toFixed(0)} ms`,
        `${t.fullRequestCpuMs.toFixed(0)} ms`,
      ]),
    ),
  );
  return trials;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
