import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedModel } from "../../../src/models/hf-classifier/shared.js";

describe("sharedModel", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "shared-model-"));
    await writeFile(join(dir, "config.json"), "{}");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("loads a folder's model once however many profiles and reloads ask for it", async () => {
    let loads = 0;
    const load = async () => ({ n: ++loads });
    const first = await sharedModel("test-a", dir, { max: 8 }, load);
    const again = await sharedModel("test-a", dir, { max: 8 }, load);
    expect(again).toBe(first);
    expect(loads).toBe(1);
    // Other options are another model.
    await sharedModel("test-a", dir, { max: 16 }, load);
    expect(loads).toBe(2);
  });

  it("loads again when the folder's files change, and after a failed load", async () => {
    let loads = 0;
    const load = async () => ({ n: ++loads });
    await sharedModel("test-b", dir, {}, load);
    await writeFile(join(dir, "config.json"), '{"changed": true}');
    const fresh = await sharedModel("test-b", dir, {}, load);
    expect(fresh.n).toBe(2);
    let attempts = 0;
    const failing = async () => {
      attempts++;
      throw new Error("no weights");
    };
    await expect(sharedModel("test-c", dir, {}, failing)).rejects.toThrow("no weights");
    await expect(sharedModel("test-c", dir, {}, failing)).rejects.toThrow("no weights");
    expect(attempts).toBe(2);
  });
});
