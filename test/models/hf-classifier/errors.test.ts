import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/errors.js";
import { loadHfTextClassifier } from "../../../src/models/hf-classifier/index.js";
import { ModelUnavailableError } from "../../../src/models/model-error.js";
import { buildTinyModel, type TinyModelOptions } from "./tiny-model.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tiny(options: TinyModelOptions = {}): Promise<string> {
  const dir = await buildTinyModel(options);
  dirs.push(dir);
  return dir;
}

describe("loadHfTextClassifier failures name the path and the fix", () => {
  it("a missing folder", async () => {
    const dir = join(await tiny(), "nope");
    const error = await loadHfTextClassifier({ dir, injectionLabel: "INJECTION" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as ModelUnavailableError).file).toBe(dir);
    expect(String(error)).toMatch(/no such folder.*tokenizer\.json.*optimum-cli export onnx/);
  });

  it.each([
    ["tokenizer.json", "tokenizer.json"],
    ["config.json", "config.json"],
    ["tokenizer_config.json", "tokenizer_config.json"],
    ["onnx", join("onnx", "model.onnx")],
  ] as const)("a folder without %s", async (skip, missing) => {
    const dir = await tiny({ skip: [skip] });
    const error = await loadHfTextClassifier({ dir, injectionLabel: "INJECTION" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as ModelUnavailableError).file).toBe(join(dir, missing));
    expect(String(error)).toContain("expected a Hugging Face text-classification export");
  });

  it("an unknown label lists the model's labels", async () => {
    const dir = await tiny({ labels: ["LABEL_0", "LABEL_1"] });
    const error = await loadHfTextClassifier({ dir, injectionLabel: "INJECTION" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toContain(join(dir, "config.json"));
    expect(String(error)).toContain('no label "INJECTION" (its labels: LABEL_0, LABEL_1)');
  });

  it("an architecture transformers.js cannot run", async () => {
    const dir = await tiny();
    const config = JSON.parse(await readFile(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
    await writeFile(join(dir, "config.json"), JSON.stringify({ ...config, model_type: "not-a-model" }));
    const error = await loadHfTextClassifier({ dir, injectionLabel: "INJECTION" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as ModelUnavailableError).file).toBe(dir);
    expect(String(error)).toContain("Unsupported model type: not-a-model");
  });

  it("a window length the model cannot take", async () => {
    const dir = await tiny();
    await expect(loadHfTextClassifier({ dir, injectionLabel: "INJECTION", maxLength: 4096 })).rejects.toThrow(
      /max_length must be a whole number from 8 to 512/,
    );
  });
});
