import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { inflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { renderReport } from "../../../src/eval/report/index.js";
import { sampleSummary } from "./sample-summary.js";

const CHROMIUM = "/usr/bin/chromium";
const run = promisify(execFile);
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** Width, height and the inflated pixel data of a PNG (https://www.w3.org/TR/png/#5Chunk-layout). */
function readPng(png: Buffer): { width: number; height: number; pixels: Buffer } {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
    }
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  return { width, height, pixels: inflateSync(Buffer.concat(idat)) };
}

// Debian's chromium package; CI images without it skip this check.
describe.skipIf(!existsSync(CHROMIUM))("the report in a real headless browser", () => {
  it("renders to a non-trivial screenshot", { timeout: 90_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "guardrail-report-"));
    dirs.push(dir);
    const page = join(dir, "report.html");
    const shot = join(dir, "report.png");
    await writeFile(page, renderReport(sampleSummary({ texts: (i) => `<script>alert(${i})</script>` })));
    await run(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        `--user-data-dir=${join(dir, "profile")}`,
        `--screenshot=${shot}`,
        "--window-size=1200,2000",
        pathToFileURL(page).href,
      ],
      { timeout: 80_000 },
    );
    const png = await readFile(shot);
    const { width, height, pixels } = readPng(png);
    expect([width, height]).toEqual([1200, 2000]);
    expect(png.length).toBeGreaterThan(50_000);
    // A blank or single-colour page inflates to a handful of distinct byte values; text, tables
    // and charts produce nearly all of them.
    expect(new Set(pixels).size).toBeGreaterThan(100);
  });
});
