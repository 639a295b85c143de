import { type ChildProcess, spawn } from "node:child_process";
import { bin } from "./built.js";

export interface Served {
  readonly server: ChildProcess;
  readonly url: string;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
}

/** `guardrail serve --port 0 ARGS` in `cwd`; resolves with its URL once it says it is listening. */
export async function spawnServe(args: readonly string[], cwd: string): Promise<Served> {
  const server = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    server.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    server.once("exit", (code) => reject(new Error(`serve exited early (${code}): ${stderr}`)));
  });
  return { server, url, stderr: () => stderr };
}
