import { watch } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configFingerprint } from "../../src/config/fingerprint.js";
import { watchConfigDir } from "../../src/server/watch.js";
import { writeKubeVolume } from "../helpers/kube-volume.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), "guardrail-watch-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const volume = (keyword: string) => ({
  "keys.yaml": "keys: []\n",
  "apps.yaml": "apps: []\n",
  "profiles/main.yaml": `name: main\nguardrails: { keyword: { enabled: true, keywords: [${keyword}] } }\n`,
});

/** Starts watching; `changes()` counts the calls so far. */
function watching(dir: string, options: Parameters<typeof watchConfigDir>[2]) {
  let calls = 0;
  cleanups.push(watchConfigDir(dir, () => calls++, { debounceMs: 50, ...options }));
  return () => calls;
}

describe("configFingerprint", () => {
  it("changes when a Kubernetes volume swaps ..data, and only then", async () => {
    const dir = await tempDir();
    await writeKubeVolume(dir, volume("alpha"));
    const first = await configFingerprint(dir);
    expect(await configFingerprint(dir)).toBe(first);
    await writeKubeVolume(dir, volume("alpha"));
    expect(await configFingerprint(dir)).not.toBe(first);
  });
});

describe("watchConfigDir", () => {
  it("sees every swap of a Kubernetes volume, though each one deletes the folder profiles/ pointed into", async () => {
    const dir = await tempDir();
    await writeKubeVolume(dir, volume("alpha"));
    const changes = watching(dir, { pollMs: 3_600_000 });
    for (const [i, keyword] of ["beta", "gamma", "delta"].entries()) {
      await writeKubeVolume(dir, volume(keyword));
      await expect.poll(changes, { timeout: 5000 }).toBe(i + 1);
    }
  });

  it("re-arms its watch on profiles/ when the folder is replaced, then sees edits inside it", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "profiles"));
    const changes = watching(dir, { pollMs: 3_600_000 });
    await rm(join(dir, "profiles"), { recursive: true });
    await mkdir(join(dir, "profiles"));
    await expect.poll(changes, { timeout: 5000 }).toBe(1);
    await writeFile(join(dir, "profiles", "main.yaml"), "name: main\n");
    await expect.poll(changes, { timeout: 5000 }).toBe(2);
  });

  it("notices a swap by polling when fs.watch reports nothing (network and overlay file systems)", async () => {
    const dir = await tempDir();
    await writeKubeVolume(dir, volume("alpha"));
    const deaf = (path: string) => watch(path, { persistent: false }, () => {});
    const changes = watching(dir, { pollMs: 100, watchPath: deaf });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(changes()).toBe(0);
    await writeKubeVolume(dir, volume("beta"));
    await expect.poll(changes, { timeout: 5000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(changes()).toBe(1);
  });
});
