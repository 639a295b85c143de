import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BENCH = fileURLToPath(new URL("../../bench/", import.meta.url));
const benches = readdirSync(BENCH).filter((f) => f.endsWith(".ts"));

// A bench is minutes of CPU on a shared machine: asking one for help must never start it.
const run = (file: string, ...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", `${BENCH}${file}`, ...args], {
    encoding: "utf8",
    timeout: 30_000,
  });

describe("bench flags", () => {
  it.each(benches)("%s --help prints its usage and exits 0 without running", (file) => {
    const r = run(file, "--help");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: /);
  });

  it("an unknown flag is one line of error and exit 2, not a stack trace", () => {
    const r = run("encoder.ts", "--secnds", "3");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Unknown option '--secnds'");
    expect(r.stderr).toContain("usage: npm run bench:encoder");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("--help lists every flag with its default", () => {
    const r = run("full-check.ts", "--help");
    expect(r.stdout).toContain("--seconds VALUE (default 10)");
    expect(r.stdout).toContain("--json\n");
    expect(r.stdout).toContain("--root VALUE\n");
  });
});
