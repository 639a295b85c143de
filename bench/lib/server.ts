import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join, relative } from "node:path";

export const HOST = "127.0.0.1";
export const ROOT = new URL("../..", import.meta.url);
const rootPath = ROOT.pathname;

/** One JSON line of the server's log (stdout). */
export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

let ticksPerSecond: number | undefined;
/** USER_HZ, the unit of /proc/<pid>/stat times (100 on every mainstream Linux). */
function clockTicks(): number {
  ticksPerSecond ??= Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  return ticksPerSecond;
}

/** Kills every server still running and removes temp dirs on any exit, error or Ctrl-C. */
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
function cleanUp(): void {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}
process.once("exit", cleanUp);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
}
/** Removed when the process exits, however it exits. */
export function removeOnExit(dir: string): void {
  tempDirs.add(dir);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/** Whether `bin/guardrail.js` can run: dist/ holds the compiled CLI. */
export function distBuilt(root = rootPath): boolean {
  return existsSync(join(root, "dist/cli/main.js"));
}

/** Source files whose compiled dist/ file is missing or older: `bin/guardrail.js` would run stale code. */
export async function staleDist(root = rootPath): Promise<string[]> {
  const src = join(root, "src");
  const stale: string[] = [];
  for (const entry of await readdir(src, { recursive: true })) {
    if (!/\.tsx?$/.test(entry) || entry.endsWith(".d.ts")) continue;
    const out = join(root, "dist", entry.replace(/\.tsx?$/, ".js"));
    const built = existsSync(out) ? statSync(out).mtimeMs : -1;
    if (built < statSync(join(src, entry)).mtimeMs) stale.push(relative(root, join(src, entry)));
  }
  return stale;
}

export interface SpawnOptions {
  readonly configDir: string;
  /** The server's stdout (one JSON log line per request) is appended here, never piped: a pipe
   *  the bench reads late would block the server's synchronous stdout writes. */
  readonly logFile: string;
  /** 0 (default): the server picks a free port and its "listening" log line names it. */
  readonly port?: number;
  /** Run `startServer` from src/ through tsx instead of `bin/guardrail.js serve` (also when dist/ is not built). */
  readonly tsx?: boolean;
  /** Extra node flags, e.g. `--cpu-prof`. */
  readonly nodeArgs?: readonly string[];
  /** The checkout whose built server runs (default this one): another clone, for before/after runs. */
  readonly root?: string;
  /** The command and its own flags (default `serve`; e.g. `proxy --upstream URL`): built dist/ only. */
  readonly command?: readonly string[];
  /** Extra environment variables for the server (e.g. GUARDRAIL_ENCODER_PRECISION). */
  readonly env?: Readonly<Record<string, string>>;
  /** How long to wait for the "listening" line (default 60 s). */
  readonly timeoutMs?: number;
}

/** A running server child process and what it logged. */
export class BenchServer {
  readonly startedAt: number;
  url = "";
  /** Milliseconds from spawn to the "listening" log line (as polled: ±2 ms). */
  listeningMs = Number.NaN;
  /** Everything logged before (and including) "listening": warn notes such as a stale index. */
  readonly startupLog: LogLine[] = [];
  private stderrText = "";
  /** preciseCpuMs's last reading per thread id, in ns. */
  private readonly threadNs = new Map<string, number>();
  private logOffset = 0;

  constructor(
    readonly child: ChildProcess,
    readonly logFile: string,
    startedAt: number,
  ) {
    this.startedAt = startedAt;
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderrText += chunk;
    });
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Log lines written since the previous call (the file is then truncated, so it stays small). */
  takeLog(): LogLine[] {
    const text = readFileSync(this.logFile, "utf8");
    const fresh = text.slice(this.logOffset);
    const complete = fresh.lastIndexOf("\n") + 1;
    this.logOffset += complete;
    if (this.logOffset > 1 << 20 && complete === fresh.length) {
      // The child appends (O_APPEND), so truncating is safe: its next line starts at 0.
      writeFileSync(this.logFile, "");
      this.logOffset = 0;
    }
    return fresh
      .slice(0, complete)
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine);
  }

  /** VmHWM (peak resident set) from /proc/<pid>/status, in MiB; undefined off Linux. */
  async peakRssMiB(): Promise<number | undefined> {
    return this.procStatus("VmHWM");
  }

  /** VmRSS (current resident set), in MiB. */
  async rssMiB(): Promise<number | undefined> {
    return this.procStatus("VmRSS");
  }

  /** CPU time the server process has used so far (user + system, all threads), in ms; NaN off Linux. */
  async cpuMs(): Promise<number> {
    const stat = await readFile(`/proc/${this.child.pid}/stat`, "utf8").catch(() => "");
    // Fields after the parenthesised command name: state is field 3, utime 14 and stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return stat ? (ticks * 1000) / clockTicks() : Number.NaN;
  }

  /**
   * CPU time so far (all threads), in ms to the nanosecond: each thread's time on a CPU from
   * /proc/<pid>/task/<tid>/schedstat, summed. /proc/<pid>/stat counts clock ticks (10 ms), too
   * coarse for a streamed response's ~50 small checks. A thread that has ended keeps the last
   * time read for it; NaN off Linux.
   */
  async preciseCpuMs(): Promise<number> {
    const dir = `/proc/${this.child.pid}/task`;
    const tids = await readdir(dir).catch(() => [] as string[]);
    if (tids.length === 0) return Number.NaN;
    await Promise.all(
      tids.map(async (tid) => {
        const stat = await readFile(`${dir}/${tid}/schedstat`, "utf8").catch(() => "");
        const ns = Number(stat.split(" ")[0]);
        if (stat && Number.isFinite(ns)) this.threadNs.set(tid, ns);
      }),
    );
    let total = 0;
    for (const ns of this.threadNs.values()) total += ns;
    return total / 1e6;
  }

  private async procStatus(field: string): Promise<number | undefined> {
    const status = await readFile(`/proc/${this.child.pid}/status`, "utf8").catch(() => "");
    const kib = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  }

  /** SIGTERM (the server drains and exits 0), SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    const { child } = this;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    }
    children.delete(child);
  }
}

/**
 * Starts the real server in a child process on loopback and resolves once it logs "listening"
 * (it listens only after compiling every profile, models included). Rejects with the server's own
 * error output if it exits first or does not come up within the timeout.
 */
export async function spawnServer(options: SpawnOptions): Promise<BenchServer> {
  const port = options.port ?? 0;
  writeFileSync(options.logFile, "");
  const out = openSync(options.logFile, "a");
  const startedAt = performance.now();
  let child: ChildProcess;
  const root = options.root ?? rootPath;
  if (options.command && (options.tsx || !distBuilt(root)))
    throw new Error(`${options.command[0]} runs from dist/ only: run npm run build`);
  if (!options.tsx && distBuilt(root)) {
    const bin = join(root, "bin/guardrail.js");
    const args = [
      ...(options.command ?? ["serve"]),
      "--config",
      options.configDir,
      "--host",
      HOST,
      "--port",
      String(port),
    ];
    child = spawn(process.execPath, [...(options.nodeArgs ?? []), bin, ...args], {
      stdio: ["ignore", out, "pipe"],
      cwd: root,
      env: { ...process.env, ...options.env },
    });
  } else {
    // As `serve` does (src/cli/actions/serve.ts): the same V8 flags, then the server.
    const start = new URL("src/server/start.ts", ROOT).href;
    const tuning = new URL("src/server/v8-tuning.ts", ROOT).href;
    const script = `(await import(${JSON.stringify(tuning)})).tuneV8ForServing();
const { startServer } = await import(${JSON.stringify(start)});
await startServer({ configDir: ${JSON.stringify(options.configDir)}, host: "${HOST}", port: ${port}, watch: false });`;
    child = spawn(
      process.execPath,
      [...(options.nodeArgs ?? []), "--import", "tsx", "--input-type=module", "-e", script],
      { stdio: ["ignore", out, "pipe"], cwd: rootPath, env: { ...process.env, ...options.env } },
    );
  }
  closeSync(out);
  children.add(child);
  const server = new BenchServer(child, options.logFile, startedAt);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const early: LogLine[] = [];
  for (;;) {
    for (const line of server.takeLog()) {
      early.push(line);
      if (line.msg === "listening" && typeof line.url === "string") {
        server.url = line.url;
        server.listeningMs = performance.now() - startedAt;
      }
    }
    if (server.url) break;
    const failed = child.exitCode !== null || child.signalCode !== null;
    if (failed || Date.now() > deadline) {
      await server.stop(1000);
      const why = failed ? `exited with code ${child.exitCode ?? child.signalCode}` : "did not start in time";
      const logged = early.map((l) => JSON.stringify(l)).join("\n");
      throw new ServerStartError(`server ${why}`, [server.stderr.trim(), logged].filter(Boolean).join("\n"));
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  server.startupLog.push(...early);
  return server;
}

/** The server could not start; `output` is what it printed (stderr, then its log lines). */
export class ServerStartError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}
