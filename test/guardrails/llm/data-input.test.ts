import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  createInjectionClassifier,
  type InjectionModelHeader,
  loadInjectionClassifier,
} from "../../../src/guardrails/llm/classifier.js";
import { textContext } from "../../../src/guardrails/llm/index.js";
import { type Mlp, mlpInput, mlpInputSize } from "../../../src/guardrails/llm/mlp.js";

// A 4-d "encoder" and one hidden unit that reads only the data input, with weight −4: the logit
// is 2 for a request and 0 (relu(−4 + 2) = 0, plus b2) for data, so the two contexts must differ.
const DIM = 4;
function tinyModel(dataInput: boolean): { header: InjectionModelHeader; mlp: Mlp } {
  const input = mlpInputSize(DIM, dataInput);
  const w1 = new Float32Array(input);
  if (dataInput) w1[input - 1] = -4;
  const mlp: Mlp = { input, hidden: 1, w1, b1: Float32Array.of(2), w2: Float32Array.of(1), b2: 0 };
  const header: InjectionModelHeader = {
    format: 2,
    dim: 1024,
    scale: 1,
    bias: 0,
    platt: { a: 1, b: 0 },
    threshold: 0.5,
    trainedAt: "test",
    mlp: {
      input,
      hidden: 1,
      vectorDim: DIM,
      isotonic: { z: [0, 2], p: [0.1, 0.9] },
      threshold: 0.5,
      ...(dataInput ? { dataInput: true } : {}),
    },
  };
  return { header, mlp };
}
const embedded = { windows: [{ text: "Please forward this e-mail." }], vectors: [new Float32Array(DIM)] };

describe("the data input", () => {
  it("is the last MLP input, after the vector, the n-gram logits and the cues", () => {
    const view = { window: 0, subwindow: 0, whole: 0 };
    const x = mlpInput(new Float32Array(DIM), "hello", view, undefined, 1);
    expect(x).toHaveLength(mlpInputSize(DIM, true));
    expect(x.at(-1)).toBe(1);
    expect(mlpInput(new Float32Array(DIM), "hello", view)).toHaveLength(mlpInputSize(DIM));
  });

  it("changes the score of a model trained with it, and unknown means a request", () => {
    const { header, mlp } = tinyModel(true);
    const c = createInjectionClassifier(header, new Float32Array(1024), mlp);
    const asRequest = c.score("Please forward this e-mail.", embedded);
    expect(asRequest).toBeCloseTo(0.9, 6);
    expect(c.score("Please forward this e-mail.", embedded, { data: true })).toBeCloseTo(0.1, 6);
    expect(c.score("Please forward this e-mail.", embedded, { data: false })).toBe(asRequest);
  });

  it("has an operating point of its own: a data score is mapped so its threshold lands on the shared one", () => {
    const { header, mlp } = tinyModel(true);
    // The data logit is 0 → isotonic 0.1; with a data threshold of 0.08 that is a flag.
    const config = { ...(header.mlp as NonNullable<InjectionModelHeader["mlp"]>), dataThreshold: 0.08 };
    const c = createInjectionClassifier({ ...header, mlp: config }, new Float32Array(1024), mlp);
    const text = "Please forward this e-mail.";
    const asData = c.explain(text, embedded, { data: true });
    expect(asData.threshold).toBe(0.5);
    expect(asData.score).toBeGreaterThanOrEqual(0.5);
    // 0.1 on a scale whose 0.08 is the threshold: 0.5 + (0.1 − 0.08)·(1 − 0.5)/(1 − 0.08).
    expect(asData.score).toBeCloseTo(0.5 + (0.02 * 0.5) / 0.92, 6);
    // A request keeps the shared operating point.
    expect(c.score(text, embedded, { data: false })).toBeCloseTo(0.9, 6);
  });

  it("is ignored by a model trained without it", () => {
    const { header, mlp } = tinyModel(false);
    const c = createInjectionClassifier(header, new Float32Array(1024), mlp);
    const text = "Please forward this e-mail.";
    expect(c.score(text, embedded, { data: true })).toBe(c.score(text, embedded));
  });

  it("refuses a model whose MLP size does not match the inputs its header names", async () => {
    const dir = mkdtempSync(join(tmpdir(), "llm-data-input-"));
    const { header } = tinyModel(true);
    const wrong = { ...header, mlp: { ...header.mlp, input: mlpInputSize(DIM) } };
    writeFileSync(join(dir, "model.json"), JSON.stringify(wrong));
    writeFileSync(join(dir, "weights.bin.gz"), gzipSync(Buffer.alloc(2048)));
    writeFileSync(join(dir, "mlp.bin.gz"), gzipSync(Buffer.alloc(4 * (mlpInputSize(DIM) + 3))));
    await expect(loadInjectionClassifier(dir)).rejects.toThrow(/MLP input size/);
  });
});

describe("which texts the guardrail judges as data", () => {
  it("is a tool result's content only", () => {
    expect(textContext({ role: "tool", source: "content" })).toEqual({ data: true });
    expect(textContext({ role: "tool", source: "tool_arguments" })).toEqual({ data: false });
    expect(textContext({ role: "user", source: "content" })).toEqual({ data: false });
    expect(textContext({ role: "assistant", source: "tool_arguments" })).toEqual({ data: false });
    // A single `message` carries no role.
    expect(textContext({})).toEqual({ data: false });
  });
});
