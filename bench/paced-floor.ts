/**
 * What one check costs the server when checks arrive one at a time with pauses between them, as a
 * streamed response's chunk checks do (issue 25 item 4): the floor under `bench/stream.ts`'s ratio.
 * `npx tsx bench/paced-floor.ts [--requests 150] [--pace-ms 230] [--server-node-flag=FLAG]`
 *
 * For each profile (the bundled default; the same without `content_moderation`; rules only) and
 * each shape (a two-word output-check; a 60-word output-check, new text each time), it sends
 * `--requests` checks paced `--pace-ms` apart (the stream guard's ~46 checks over ~10.6 s), then
 * the same number back to back, and prints the server process's CPU per check (all threads,
 * /proc), less what the same server spends over the same pauses with no checks (its timers and
 * garbage collection). Every profile gets a fresh server, warmed up on other texts first.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { benchArgs } from "./lib/args.js";
import { checkHeaders, writeConfigDir } from "./lib/config.js";
import { ROOT, removeOnExit, spawnServer } from "./lib/server.js";
import { table } from "./lib/stats.js";
import { INPUT_TEXTS, OUTPUT_TEXTS } from "./lib/texts.js";

const values = benchArgs("npx tsx bench/paced-floor.ts [flags]", {
  requests: { type: "string", default: "150" },
  "pace-ms": { type: "string", default: "230" },
  // A node flag for the servers, e.g. --server-node-flag=--memory-reducer (repeatable).
  "server-node-flag": { type: "string", multiple: true, default: [] },
});
const requests = Number(values.requests);
const paceMs = Number(values["pace-ms"]);

const dir = await mkdtemp(join(tmpdir(), "guardrail-bench-paced-"));
removeOnExit(dir);
const bundled = parse(await readFile(new URL("profiles/default.yaml", ROOT), "utf8")) as {
  guardrails: Record<string, { enabled?: boolean }>;
};
const without = (...ids: string[]) => ({
  guardrails: Object.fromEntries(
    Object.entries(bundled.guardrails).map(([id, g]) => [
      id,
      ids.includes(id) ? { ...g, enabled: false } : g,
    ]),
  ),
});
const profiles: Record<string, object> = {
  "default (pii + content_moderation)": without(),
  "without content_moderation (pii)": without("content_moderation"),
  "rules only (pii)": without("content_moderation", "llm", "vector"),
};

const words = OUTPUT_TEXTS.map((t) => t.response)
  .join(" ")
  .split(/\s+/);
let n = 0;
// A new text every time: the server caches vectors, so a repeat would cost less than a stream's new text.
const shapes: Record<string, () => string> = {
  "2 words": () => `Noted ${++n}.`,
  "60 words": () => {
    const from = (n++ * 60) % (words.length - 60);
    return `${words.slice(from, from + 60).join(" ")} (${n})`;
  },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rows: string[][] = [];
for (const [name, profile] of Object.entries(profiles)) {
  const config = await writeConfigDir(join(dir, `config-${rows.length}`), { p: profile });
  const server = await spawnServer({
    configDir: config.dir,
    logFile: join(dir, "server.log"),
    nodeArgs: values["server-node-flag"],
  });
  const headers = checkHeaders(config, "p");
  const check = async (message: string) => {
    const r = await fetch(`${server.url}/apikey/api/guardrail/v1/output-check`, {
      method: "POST",
      headers,
      body: JSON.stringify({ message }),
    });
    if (r.status !== 200) throw new Error(`output-check answered ${r.status}: ${await r.text()}`);
    await r.text();
  };
  for (let i = 0; i < 10; i++)
    for (const text of [...INPUT_TEXTS, ...OUTPUT_TEXTS.map((t) => t.response)]) await check(text);
  const cpuOf = async (work: () => Promise<void>) => {
    const before = await server.cpuMs();
    await work();
    return (await server.cpuMs()) - before;
  };
  const idle = await cpuOf(async () => {
    for (let i = 0; i < requests; i++) await sleep(paceMs);
  });
  for (const [shape, text] of Object.entries(shapes)) {
    const paced = await cpuOf(async () => {
      for (let i = 0; i < requests; i++) {
        await sleep(paceMs);
        await check(text());
      }
    });
    const back = await cpuOf(async () => {
      for (let i = 0; i < requests; i++) await check(text());
    });
    const ms = (x: number) => (x / requests).toFixed(2);
    rows.push([name, shape, ms(paced), ms(idle), ms(paced - idle), ms(back)]);
  }
  await server.stop();
}
console.log(
  `output-check, server CPU ms per check (${requests} checks; paced: ${paceMs} ms apart; idle: the same pauses with no checks)\n`,
);
console.log(table(["profile", "text", "paced", "idle", "paced − idle", "back to back"], rows));
process.exit(0);
