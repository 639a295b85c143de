/**
 * What a large keyword list costs to load: `npx tsx bench/keyword-build.ts [--runs 3]`.
 * For 10,000 and 100,000 keywords of two shapes (phrases over a small vocabulary, which share
 * prefixes; random letters, which make the largest trie), each case in a fresh Node process:
 * - `yaml`: parsing the profile file (the config loader's `readYaml`, not the guardrail's cost);
 * - `settings`: validating the list (`keywordGuardrail.settings.parse`);
 * - `build`: `create()` until the first check is answered (the automaton is ready);
 * - `block`: the longest time the event loop was held during `build` (setImmediate probe);
 * - `kept`: memory the detector keeps (V8 heap + typed arrays) after a full GC; `peak RSS`: VmHWM.
 * Median of --runs for times, the last run for memory.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import { readYaml } from "../src/config/files.js";
import { keywordGuardrail } from "../src/guardrails/keyword/index.js";
import { normalizeText } from "../src/text/normalize.js";
import { benchArgs } from "./lib/args.js";
import { keywordList } from "./lib/keywords.js";

const values = benchArgs("npx tsx bench/keyword-build.ts [--runs 3] [--case NAME]", {
  runs: { type: "string", default: "3" },
  case: { type: "string" },
});

async function runCase(count: number, shape: "phrases" | "random"): Promise<void> {
  const keywords = keywordList(count, shape);
  const dir = mkdtempSync(join(tmpdir(), "kw-build-"));
  const file = join(dir, "profile.yaml");
  writeFileSync(file, stringify({ guardrails: { keyword: { enabled: true, keywords } } }));
  let t = performance.now();
  const raw = (await readYaml(file)) as { guardrails: { keyword: unknown } };
  const yaml = performance.now() - t;
  rmSync(dir, { recursive: true });

  t = performance.now();
  const settings = keywordGuardrail.settings.parse(raw.guardrails.keyword);
  const parse = performance.now() - t;

  const used = () => {
    global.gc?.();
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  const usedBefore = used();
  let longest = 0;
  let last = performance.now();
  let probing = true;
  const probe = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (probing) setImmediate(probe);
  };
  setImmediate(probe);
  t = performance.now();
  last = t;
  const detector = await keywordGuardrail.create(settings);
  await detector.check({ mode: "input", text: normalizeText("nothing to see here") });
  const build = performance.now() - t;
  longest = Math.max(longest, performance.now() - last);
  probing = false;
  const heap = used() - usedBefore;
  const peak = process.resourceUsage().maxRSS * 1024;
  // Keep the detector alive until after the heap was measured.
  if (!detector) throw new Error("unreachable");
  const chars = keywords.reduce((sum, k) => sum + k.length, 0);
  console.log(JSON.stringify({ count, shape, chars, yaml, parse, build, block: longest, heap, peak }));
}

interface Row {
  count: number;
  shape: string;
  chars: number;
  yaml: number;
  parse: number;
  build: number;
  block: number;
  heap: number;
  peak: number;
}

function main(): void {
  const self = fileURLToPath(import.meta.url);
  const runs = Number(values.runs);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const ms = (x: number) => x.toFixed(0).padStart(7);
  const mib = (x: number) => (x / 2 ** 20).toFixed(0).padStart(8);
  console.log(
    `${"keywords".padEnd(18)} ${"chars".padStart(9)} ${"yaml ms".padStart(7)} ${"settings".padStart(8)} ` +
      `${"build".padStart(7)} ${"block".padStart(7)} ${"kept MiB".padStart(8)} ${"peak RSS".padStart(8)}`,
  );
  for (const count of [10_000, 100_000]) {
    for (const shape of ["phrases", "random"] as const) {
      const rows: Row[] = [];
      for (let run = 0; run < runs; run++) {
        const out = execFileSync(
          process.execPath,
          ["--expose-gc", "--import", "tsx", self, "--case", `${count},${shape}`],
          { encoding: "utf8", maxBuffer: 1 << 20 },
        );
        rows.push(JSON.parse(out.trim().split("\n").at(-1) as string) as Row);
      }
      const last = rows.at(-1) as Row;
      const pick = (key: "yaml" | "parse" | "build" | "block") => median(rows.map((r) => r[key]));
      console.log(
        `${`${count.toLocaleString("en")} ${shape}`.padEnd(18)} ${last.chars.toLocaleString("en").padStart(9)} ` +
          `${ms(pick("yaml"))} ${ms(pick("parse")).padStart(8)} ${ms(pick("build"))} ${ms(pick("block"))} ` +
          `${mib(last.heap)} ${mib(last.peak)}`,
      );
    }
  }
}

if (values.case) {
  const [count, shape] = values.case.split(",");
  await runCase(Number(count), shape as "phrases" | "random");
} else main();
