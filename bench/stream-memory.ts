/**
 * Memory over a long stream (issue 11, section 5): `--chunks` (default 100,000) chunks of three
 * words through the library's `guardStream` in process (default profile), as fast as they come.
 * Prints RSS and V8 heap every tenth of the stream, the heap also after a full garbage collection
 * (run with `node --expose-gc --import tsx bench/stream-memory.ts [--chunks 100000]`; `npx tsx`
 * prints "n/a" there), and what the response itself takes (two bytes a character at most).
 * Target: flat, beyond the response: the guard keeps the response for its final check and for
 * GuardrailBlockedError.released, and nothing else grows with it.
 */
import { createGuardrail } from "../src/index.js";
import { benchArgs } from "./lib/args.js";
import { table } from "./lib/stats.js";
import { BENIGN_PROMPTS } from "./lib/texts.js";

const values = benchArgs("npx tsx bench/stream-memory.ts [--chunks 100000]", {
  chunks: { type: "string", default: "100000" },
});
const total = Number(values.chunks);
const words = BENIGN_PROMPTS.join(" ").split(/(?<=\s)/);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

const collect = (globalThis as { gc?: () => void }).gc;
function sample(label: number | string): string[] {
  const m = process.memoryUsage();
  collect?.();
  const after = collect ? mib(process.memoryUsage().heapUsed) : "n/a";
  return [String(label), String(chars), mib(chars * 2), mib(m.rss), mib(m.heapUsed), after];
}

const guard = await createGuardrail({ profile: "default" });
const rows: string[][] = [];
let chars = 0;
async function* source() {
  for (let i = 0; i < total; i++) {
    const chunk = [0, 1, 2].map((k) => words[(i * 3 + k) % words.length]).join("");
    chars += chunk.length;
    if (i % (total / 10) === 0) rows.push(sample(i));
    yield chunk;
    // Let the guard's checks run between chunks, as a network source would.
    if (i % 100 === 0) await new Promise((r) => setImmediate(r));
  }
}
const started = performance.now();
let released = 0;
for await (const text of guard.guardStream(source())) released += text.length;
rows.push(sample(`${total} (end)`));
console.log(
  `${total} chunks, ${chars} characters released ${released === chars ? "in full" : `${released}`}, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
console.log(
  table(["chunks read", "characters", "response MiB", "RSS MiB", "heap used MiB", "heap after GC MiB"], rows),
);
await guard.close();
