import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelUnavailableError } from "../../../src/models/model-error.js";
import { createUseLiteEncoder } from "../../../src/models/use-lite/encoder.js";
import { ensureModel, MANIFEST_FILE, MODEL_FILE } from "../../../src/models/use-lite/model-cache.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "use-lite-cache-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("USE-lite model cache", () => {
  it("names the missing file and the rebuild command when it may not build", async () => {
    const empty = join(dir, "empty");
    const error = await ensureModel({ cacheDir: empty, autoBuild: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as Error).message).toContain(join(empty, MODEL_FILE));
    expect((error as Error).message).toContain("npm run build:models");
  });

  it("gives the same error from an encoder's first embed", async () => {
    const encoder = createUseLiteEncoder({ cacheDir: join(dir, "empty"), autoBuild: false });
    await expect(encoder.embed(["hello"])).rejects.toThrow(/use-lite\.onnx.*npm run build:models/);
  });

  it("builds a missing model, then finds it current", async () => {
    const cacheDir = join(dir, "built");
    const first = await ensureModel({ cacheDir });
    expect(first.rebuilt).toBe(true);
    expect((await stat(first.modelPath)).size).toBeGreaterThan(20_000_000);
    const second = await ensureModel({ cacheDir, autoBuild: false });
    expect(second.rebuilt).toBe(false);
    expect(second.id).toBe(first.id);
  });

  it("treats a manifest from another converter version as stale", async () => {
    const cacheDir = join(dir, "built");
    const path = join(cacheDir, MANIFEST_FILE);
    const manifest = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...manifest, converter: "use-lite-converter/0" }));
    await expect(ensureModel({ cacheDir, autoBuild: false })).rejects.toThrow(/stale.*npm run build:models/);
    expect((await ensureModel({ cacheDir })).rebuilt).toBe(true);
  });

  it("treats a truncated model file as stale", async () => {
    const cacheDir = join(dir, "built");
    await writeFile(join(cacheDir, MODEL_FILE), "not a model");
    await expect(ensureModel({ cacheDir, autoBuild: false })).rejects.toThrow(ModelUnavailableError);
  });

  it("says so when the cache folder cannot be written", async () => {
    const notADir = join(dir, "a-file");
    await writeFile(notADir, "");
    await expect(ensureModel({ cacheDir: join(notADir, "cache") })).rejects.toThrow(/cannot write it here/);
  });

  it("reports an unreadable model file clearly", async () => {
    const cacheDir = join(dir, "garbage");
    const built = await ensureModel({ cacheDir });
    const size = (await stat(built.modelPath)).size;
    await writeFile(built.modelPath, Buffer.alloc(size, 7));
    const encoder = createUseLiteEncoder({ cacheDir, autoBuild: false });
    await expect(encoder.load()).rejects.toThrow(/unreadable; run `npm run build:models`/);
  });
});
