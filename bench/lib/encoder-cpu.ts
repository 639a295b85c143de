import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The encoder's own CPU time per request text: what a full check could cost if everything around
 * the encoder (HTTP, windowing, the hand-off to the workers, the other guardrails, the log) were
 * free. Two text sets, as the bench sends them: `sequential` (a counter as reference: one window
 * for each of the bench's prompts) and `load` (autocannon's ~33-character ids: two windows and
 * their sentence pieces, most of them served by the vector cache). `alone` is one process
 * embedding texts one after another; `paired` is two such processes at once, both cores busy as
 * the server's two encoder workers are under load (two busy cores cost each other a little:
 * shared caches, and here other tenants' work too).
 */
export interface EncoderCpu {
  readonly texts: number;
  /** Windows and sentence pieces embedded per text (after the vector cache), per text set. */
  readonly embedded: { readonly sequential: number; readonly load: number };
  /** CPU ms per sequential text, one process: the unloaded check's counterpart. */
  readonly alone: number;
  /** CPU ms per load text, one process. */
  readonly aloneLoad: number;
  /** CPU ms per load text, two processes at once: the loaded server's counterpart. */
  readonly paired: number;
}

interface ChildResult {
  texts: number;
  embedded: number;
  cpuMs: number;
  wallMs: number;
}

function runChild(root: string, textsFile: string): Promise<ChildResult> {
  const script = new URL("encoder-cpu-child.mjs", import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, root, textsFile], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(JSON.parse(out) as ChildResult);
      else reject(new Error(`encoder CPU probe exited with code ${code}: ${err.trim()}`));
    });
  });
}

/** Measures both text sets with the encoder built in `root`'s dist/ (see encoder-cpu-child.mjs). */
export async function measureEncoderCpu(
  root: string,
  texts: { readonly sequential: readonly string[]; readonly load: readonly string[] },
  tmp: string,
): Promise<EncoderCpu> {
  const sequentialFile = join(tmp, "encoder-sequential.json");
  const loadFile = join(tmp, "encoder-load.json");
  await writeFile(sequentialFile, JSON.stringify(texts.sequential));
  await writeFile(loadFile, JSON.stringify(texts.load));
  const alone = await runChild(root, sequentialFile);
  const aloneLoad = await runChild(root, loadFile);
  const pair = await Promise.all([runChild(root, loadFile), runChild(root, loadFile)]);
  const sum = (f: (r: ChildResult) => number) => pair.reduce((total, r) => total + f(r), 0);
  return {
    texts: alone.texts,
    embedded: { sequential: alone.embedded / alone.texts, load: aloneLoad.embedded / aloneLoad.texts },
    alone: alone.cpuMs / alone.texts,
    aloneLoad: aloneLoad.cpuMs / aloneLoad.texts,
    paired: sum((r) => r.cpuMs) / sum((r) => r.texts),
  };
}
