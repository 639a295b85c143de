/**
 * What `guardrail proxy` adds to an LLM call (issue 24's "Measure"): the same requests sent to a
 * fake OpenAI-compatible upstream directly and through the proxy, alternately, on loopback.
 * `npm run bench:proxy [-- --runs 200 --stream-runs 10 --interval-ms 10]`
 *
 * The proxy is the built binary (`node bin/guardrail.js proxy`, dist/ must be current) in a child
 * process, on the bundled default profile (prompts: llm, vector, keyword, regex, pii; answers:
 * content_moderation, pii), its encoder on two worker threads. The fake upstream runs in this
 * process and answers at once: what is measured is the proxy's own time, not a model's.
 * - JSON: a ~60-word prompt, a ~60-word answer; latency per request, p50 and p90.
 * - Streamed: a ~840-word answer in 3-word chunks, paced (one every `--interval-ms`, an LLM's
 *   pace) and in a burst (all at once). Time to the first content byte and to the last byte.
 * Every proxied answer is compared with the direct one: they must be byte for byte the same.
 * Each request's texts are its own (a number in every sentence), so the proxy's vector cache,
 * which serves a stream's repeated context, never serves a whole request as repeated traffic would.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { benchArgs } from "./lib/args.js";
import { writeConfigDir } from "./lib/config.js";
import { HOST, removeOnExit, spawnServer, staleDist } from "./lib/server.js";
import { percentile, table } from "./lib/stats.js";
import { BENIGN_PROMPTS } from "./lib/texts.js";

const values = benchArgs("npx tsx bench/proxy.ts [flags]", {
  runs: { type: "string", default: "200" },
  "stream-runs": { type: "string", default: "10" },
  "interval-ms": { type: "string", default: "10" },
});
const runs = Number(values.runs);
const streamRuns = Number(values["stream-runs"]);
const intervalMs = Number(values["interval-ms"]);

const stale = await staleDist();
if (stale.length > 0) throw new Error(`dist/ is older than ${stale[0]}: run npm run build`);

// ——— the fake upstream ———
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-b", object: "chat.completion.chunk", created: 1, model: "fake", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
/** `text` made this request's own: every sentence carries the request's number. */
const own = (text: string, n: number) => text.replace(/([.?!])( |$)/g, ` (${n})$1$2`);
const longAnswer = [...BENIGN_PROMPTS, ...BENIGN_PROMPTS].join(" ");
const piecesOf = (text: string) => {
  const words = text.split(" ");
  return Array.from(
    { length: Math.ceil(words.length / 3) },
    (_, i) => `${words.slice(i * 3, i * 3 + 3).join(" ")} `,
  );
};
const pieces = piecesOf(own(longAnswer, 0));
const eventsOf = (n: number) => [
  chunk({ role: "assistant", content: "" }),
  ...piecesOf(own(longAnswer, n)).map((content) => chunk({ content })),
  chunk({}, "stop"),
  "data: [DONE]\n\n",
];
const completion = (content: string) =>
  JSON.stringify({
    id: "chatcmpl-a",
    object: "chat.completion",
    created: 1,
    model: "fake",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let pace = 0;
async function answerStream(res: ServerResponse, n: number) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const event of eventsOf(n)) {
    res.write(event);
    if (pace > 0) await sleep(pace);
  }
  res.end();
}
/** The number of the request being answered: the client sets it before each call. */
let answerIndex = 0;
const upstream = createServer(async (req, res) => {
  let body = "";
  for await (const piece of req.setEncoding("utf8")) body += piece;
  if (JSON.parse(body).stream) return answerStream(res, answerIndex);
  res.writeHead(200, { "content-type": "application/json" });
  res.end(completion(own(BENIGN_PROMPTS[(answerIndex + 3) % BENIGN_PROMPTS.length] ?? "", answerIndex)));
});
await new Promise<void>((resolve) => upstream.listen(0, HOST, resolve));
const upstreamUrl = `http://${HOST}:${(upstream.address() as AddressInfo).port}/v1`;

// ——— the proxy, on the bundled default profile ———
const dir = await mkdtemp(join(tmpdir(), "guardrail-bench-proxy-"));
removeOnExit(dir);
const {
  name: _name,
  default: _default,
  ...profile
} = parse(await readFile(new URL("../profiles/default.yaml", import.meta.url), "utf8"));
await writeConfigDir(dir, { default: profile });
const proxy = await spawnServer({
  configDir: dir,
  logFile: join(dir, "proxy.log"),
  command: ["proxy", "--upstream", upstreamUrl],
});

// ——— the client ———
async function call(base: string, body: object) {
  const started = performance.now();
  const res = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-bench" },
    body: JSON.stringify(body),
  });
  if (!res.body) throw new Error("no body");
  let text = "";
  let first = Number.NaN;
  const decoder = new TextDecoder();
  for await (const bytes of res.body) {
    text += decoder.decode(bytes, { stream: true });
    if (Number.isNaN(first) && /"content":"[^"]/.test(text)) first = performance.now() - started;
  }
  return { status: res.status, text, first, ms: performance.now() - started };
}

const ask = (i: number, stream = false) => ({
  model: "fake",
  stream,
  messages: [{ role: "user", content: own(BENIGN_PROMPTS[i % BENIGN_PROMPTS.length] ?? "", i) }],
});

/** Direct and proxied calls alternately; each proxied answer must equal the direct one. */
async function measure(count: number, from: number, stream: boolean) {
  const direct: { first: number; ms: number }[] = [];
  const proxied: { first: number; ms: number }[] = [];
  for (let i = 0; i < count; i++) {
    const n = from + i;
    answerIndex = n;
    const a = await call(upstreamUrl, ask(n, stream));
    answerIndex = n;
    const b = await call(`${proxy.url}/v1`, ask(n, stream));
    if (b.status !== 200 || a.text !== b.text)
      throw new Error(`proxied answer ${i} differs: ${b.status} ${b.text.slice(0, 300)}`);
    direct.push(a);
    proxied.push(b);
  }
  return { direct, proxied };
}

const ms = (x: number) => x.toFixed(1);
function rows(label: string, { direct, proxied }: Awaited<ReturnType<typeof measure>>, key: "first" | "ms") {
  const d50 = percentile(
    direct.map((r) => r[key]),
    50,
  );
  const p50 = percentile(
    proxied.map((r) => r[key]),
    50,
  );
  const d90 = percentile(
    direct.map((r) => r[key]),
    90,
  );
  const p90 = percentile(
    proxied.map((r) => r[key]),
    90,
  );
  return [label, ms(d50), ms(p50), ms(p50 - d50), `${(p50 / d50).toFixed(2)}×`, ms(d90), ms(p90)];
}

try {
  // Request numbers never repeat, warm-up included.
  await measure(20, 1_000_000, false);
  const json = await measure(runs, 0, false);
  pace = intervalMs;
  const paced = await measure(streamRuns, 2_000_000, true);
  pace = 0;
  const burst = await measure(streamRuns, 3_000_000, true);
  console.log(
    `guardrail proxy vs the upstream directly (loopback, default profile; ${runs} JSON requests, ${streamRuns} streams of ${pieces.length} chunks each way)\n`,
  );
  console.log(
    table(
      ["", "direct p50 ms", "proxy p50 ms", "added ms", "ratio", "direct p90", "proxy p90"],
      [
        rows("JSON request (whole answer)", json, "ms"),
        rows(`stream paced ${intervalMs} ms: first content`, paced, "first"),
        rows(`stream paced ${intervalMs} ms: whole answer`, paced, "ms"),
        rows("stream burst: first content", burst, "first"),
        rows("stream burst: whole answer", burst, "ms"),
      ],
    ),
  );
} finally {
  await proxy.stop();
  upstream.closeAllConnections();
  upstream.close();
}
