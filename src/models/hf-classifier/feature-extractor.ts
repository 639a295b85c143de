import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Encoder, EncoderInfo } from "../encoder.js";
import { ModelUnavailableError } from "../model-error.js";
import { inspectModelFolder } from "./folder.js";
import { loadTransformersModel } from "./load.js";

export interface FeatureExtractorOptions {
  /** Folder of the export (`optimum-cli export onnx --task feature-extraction`). */
  readonly dir: string;
  /**
   * How token vectors become one text vector when the model gives no `sentence_embedding`: `mean`
   * over the real tokens (sentence-transformers models) or the first token's (`cls`).
   */
  readonly pooling?: "mean" | "cls";
  /** Tokens per text at most (windows are cut to fit); defaults to the model's limit. */
  readonly maxLength?: number;
  readonly threads?: number;
}

type Tensor = { dims: number[]; data: Float32Array | BigInt64Array };

// Texts per forward pass: padding waste stays small, index builds still take few calls.
const BATCH = 16;

/**
 * A local Hugging Face feature-extraction export as the project's Encoder: unit vectors, one per
 * text, so the vector guardrail can index and search with it instead of USE-lite. Its id is a
 * digest of the weights, tokenizer and pooling, so an index built with another model is stale.
 */
export async function loadHfEncoder(options: FeatureExtractorOptions): Promise<Encoder> {
  const dir = resolve(options.dir);
  const folder = await inspectModelFolder(dir, "feature-extraction");
  const pooling = options.pooling ?? "mean";
  const maxLength = Math.min(options.maxLength ?? folder.maxLength, folder.maxLength);
  const started = performance.now();
  const { tokenizer, model } = await loadTransformersModel(folder, "AutoModel", options.threads ?? 1);
  const digest = createHash("sha256");
  for (const file of ["config.json", "tokenizer.json", folder.weights.file])
    digest.update(await readFile(join(dir, file)));
  const id = `hf-${digest.update(`${pooling}:${maxLength}`).digest("hex").slice(0, 16)}`;

  async function run(texts: readonly string[]): Promise<Float32Array[]> {
    const inputs = tokenizer([...texts], { padding: true, truncation: true, max_length: maxLength });
    const outputs = (await model(inputs)) as Record<string, Tensor | undefined>;
    const mask = (inputs as { attention_mask: Tensor }).attention_mask;
    const pooled = outputs.sentence_embedding ?? outputs.last_hidden_state ?? outputs.token_embeddings;
    if (!pooled) {
      throw new ModelUnavailableError(
        join(dir, folder.weights.file),
        `its outputs (${Object.keys(outputs).join(", ")}) have no last_hidden_state or sentence_embedding; export it with --task feature-extraction`,
      );
    }
    const vectors = pooled.dims.length === 2 ? rows(pooled) : pool(pooled, mask, pooling);
    return vectors.map(normalise);
  }

  // One pass now checks the outputs and gives the dimension.
  const dim = (await run(["hello"]))[0]?.length ?? 0;
  const info: EncoderInfo = {
    id,
    modelPath: join(dir, folder.weights.file),
    loadMs: performance.now() - started,
  };
  return {
    dim,
    maxTokens: maxLength,
    load: async () => info,
    async embed(texts, embedOptions) {
      const out: Float32Array[] = new Array(texts.length);
      const filled = texts.flatMap((t, i) => (t.trim() ? [i] : []));
      for (let i = 0; i < texts.length; i++) if (!texts[i]?.trim()) out[i] = new Float32Array(dim);
      for (let b = 0; b < filled.length; b += BATCH) {
        embedOptions?.signal?.throwIfAborted();
        const batch = filled.slice(b, b + BATCH);
        const vectors = await run(batch.map((i) => texts[i] as string));
        batch.forEach((i, k) => {
          out[i] = vectors[k] as Float32Array;
        });
      }
      return out;
    },
    countTokens: (text) => tokenizer.encode(text).length,
    async close() {
      await model.dispose();
    },
  };
}

function rows(t: Tensor): Float32Array[] {
  const [n, d] = t.dims as [number, number];
  return Array.from({ length: n }, (_, r) =>
    Float32Array.from((t.data as Float32Array).subarray(r * d, (r + 1) * d)),
  );
}

/** Token vectors [batch, tokens, dim] to one per text: masked mean, or the first token. */
function pool(t: Tensor, mask: Tensor, pooling: "mean" | "cls"): Float32Array[] {
  const [n, len, d] = t.dims as [number, number, number];
  const data = t.data as Float32Array;
  return Array.from({ length: n }, (_, r) => {
    const v = new Float32Array(d);
    if (pooling === "cls") return v.map((_, k) => data[r * len * d + k] as number);
    let count = 0;
    for (let j = 0; j < len; j++) {
      if (Number(mask.data[r * len + j]) === 0) continue;
      count++;
      const at = (r * len + j) * d;
      for (let k = 0; k < d; k++) v[k] = (v[k] as number) + (data[at + k] as number);
    }
    return count > 0 ? v.map((x) => x / count) : v;
  });
}

function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return norm > 0 ? v.map((x) => x / norm) : v;
}
