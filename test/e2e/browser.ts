// A small harness for end-to-end tests in a real browser: Debian's chromium (no browser is
// downloaded: `apt-get install -y chromium`) driven by playwright-core, and the real CLI spawned
// from bin/ with its output parsed. Extend it here rather than in the tests.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { bin, root } from "../helpers/built.js";

export const CHROMIUM = process.env.GUARDRAIL_CHROMIUM ?? "/usr/bin/chromium";

/** Headless, offline and quiet: no sandbox (root in CI containers), no updates, no sync, no QUIC. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile in a temporary --user-data-dir, removed on close. `bypassCSP` is
 * for the accessibility audit alone (it injects axe-core); every other test keeps the CSP on.
 */
export async function launchBrowser(options: { bypassCSP?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`);
  const profile = await mkdtemp(join(tmpdir(), "guardrail-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1100, height: 760 },
    locale: "en-GB",
    bypassCSP: options.bypassCSP ?? false,
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export interface Spawned {
  readonly child: ChildProcess;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stderr, now or once it is written. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `guardrail ARGS` from bin/, as a user runs it. */
export function spawnGuardrail(args: readonly string[]): Spawned {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  const out = { stdout: "", stderr: "" };
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out.stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    out.stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = pattern.exec(out.stderr);
          if (!found) return false;
          clearInterval(timer);
          resolve(found);
          return true;
        };
        const started = Date.now();
        const timer = setInterval(() => {
          if (look()) return;
          if (child.exitCode !== null || Date.now() - started > timeoutMs) {
            clearInterval(timer);
            reject(new Error(`no ${pattern} on stderr (exit ${child.exitCode}): ${out.stderr}`));
          }
        }, 25);
        look();
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** `guardrail dashboard --config DIR --port 0`, once it has printed its one-time link. */
export async function spawnDashboard(dir: string): Promise<{ process: Spawned; link: string; base: string }> {
  const process = spawnGuardrail(["dashboard", "--config", dir, "--port", "0"]);
  const link = (await process.waitFor(/open (http:\/\/127\.0\.0\.1:\d+\/login\?token=[\w-]+) /))[1] ?? "";
  return { process, link, base: new URL(link).origin };
}

/** Where screenshots go when DASHBOARD_SCREENSHOTS is set (`npm run dashboard:screenshots`); else nowhere. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.DASHBOARD_SCREENSHOTS;
  if (!dir) return;
  const target = join(root, dir === "1" ? "docs/dashboard" : dir);
  await mkdir(target, { recursive: true });
  await page.screenshot({ path: join(target, `${name}.png`), fullPage: true });
}
