import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The encoder's own CPU time per request text: what a full check could cost if everything around
 * the encoder (HTTP, windowing, the hand-off to the workers, the other guardrails, the log) were
 * free. `processes` 1 embeds the texts one after another in one process; 2 runs two such processes
 * at once, both cores busy as the server's two encoder workers are under load (two busy cores cost
 * each other a little: shared caches, and here other tenants' work too).
 */
export interface EncoderCpu {
  /** CPU ms per text. */
  readonly msPerText: number;
  /** Windows and sentence pieces that reached the model per text (past the vector cache). */
  readonly embeddedPerText: number;
  /** CPU ms per text for its windows alone (no pieces, no system_prompt_protection sentences). */
  readonly windowsMsPerText: number;
}

/** What a check embeds: INPUT-ALL's windows and pieces, or OUTPUT-ALL's windows and sentences. */
export type ProbeMode = "input" | "output";

interface ChildResult {
  texts: number;
  embedded: number;
  cpuMs: number;
  windowsCpuMs: number;
  wallMs: number;
}

function runChild(root: string, textsFile: string, precision: string, mode: ProbeMode): Promise<ChildResult> {
  const script = new URL("encoder-cpu-child.mjs", import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const args = [script, root, textsFile, precision, mode];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
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

let files = 0;

/** Measures `texts` with the encoder built in `root`'s dist/ (see encoder-cpu-child.mjs). */
export async function measureEncoderCpu(
  root: string,
  texts: readonly string[],
  tmp: string,
  processes: 1 | 2 = 1,
  precision: "fp32" | "int8" = "fp32",
  mode: ProbeMode = "input",
): Promise<EncoderCpu> {
  const file = join(tmp, `encoder-texts-${files++}.json`);
  await writeFile(file, JSON.stringify(texts));
  const runs = await Promise.all(
    Array.from({ length: processes }, () => runChild(root, file, precision, mode)),
  );
  const sum = (f: (r: ChildResult) => number) => runs.reduce((total, r) => total + f(r), 0);
  return {
    msPerText: sum((r) => r.cpuMs) / sum((r) => r.texts),
    embeddedPerText: sum((r) => r.embedded) / sum((r) => r.texts),
    windowsMsPerText: sum((r) => r.windowsCpuMs) / sum((r) => r.texts),
  };
}
