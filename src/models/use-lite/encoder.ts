import { readFileSync } from "node:fs";
import { join } from "node:path";
import "../ort-telemetry.js";
import * as ort from "onnxruntime-node";
import type { Encoder, EncoderInfo } from "../encoder.js";
import { ModelUnavailableError } from "../model-error.js";
import { OUTPUT_NAME, TOKEN_STATES_NAME } from "./convert/convert.js";
import { IDS_INPUT, PAD_ID } from "./convert/dense-input.js";
import type { Precision } from "./convert/quantize.js";
import { ensureModel, sourceDir } from "./model-cache.js";
import { createTokenizer, type Tokenizer, type Vocabulary } from "./tokenizer.js";

/**
 * Universal Sentence Encoder lite on onnxruntime-node's CPU kernels.
 *
 * Empty text: a text with no tokens (only "" after NFKC) gets a zero vector without running the
 * model. TF.js throws on it, or returns a constant "empty" vector mid-batch; a zero vector instead
 * says "no content" plainly: its cosine with anything is 0, so it never looks like a known attack.
 */
export const USE_LITE_DIM = 512;
/** The graph ignores token positions ≥ 128. */
export const USE_LITE_MAX_TOKENS = 128;

export interface UseLiteOptions {
  /**
   * fp32 (default), or int8: the dense layers' weights quantised per channel and run on
   * onnxruntime's integer kernels (convert/quantize.ts; models/use-lite/README.md has its figures).
   */
  readonly precision?: Precision;
  /** Threads per inference. 1 by default: on a busy 2-core box more threads per run were slower. */
  readonly intraOpThreads?: number;
  /** Texts per model run (fp32; int8 always runs one); a longer list is split, sorted by length to pad less. */
  readonly maxBatch?: number;
  /**
   * Token positions (texts × longest text) per model run, 1,024 by default. A run's activations
   * grow with it and onnxruntime's arena keeps its largest run's memory for good: 32 windows of
   * 128 tokens held ~78 MiB per session, 8 hold ~19 MiB, and ran 20% faster per token.
   */
  readonly maxRunTokens?: number;
  readonly cacheDir?: string;
  /** Convert a missing or stale model on load (default true); false makes that an error. */
  readonly autoBuild?: boolean;
}

/** Token ids of a text, as `tokenize` gives them (a plain array, or one sent between threads). */
export type TokenIds = readonly number[] | Int32Array;

/**
 * The in-thread encoder, plus its two halves: `tokenize` (what `countTokens` counts) and
 * `embedTokens` (the model on ids), so a text tokenised once for windowing on one thread is not
 * tokenised again by the thread that runs the model (encoder-pool.ts).
 */
export interface UseLiteEncoder extends Encoder {
  tokenize(text: string): number[];
  /** `embed(texts)` is `embedTokens(texts.map(tokenize))`: the same vectors. */
  embedTokens(ids: readonly TokenIds[]): Promise<Float32Array[]>;
  /** The same vectors, and each text's token states (see `EncodedTokens`) from the same run. */
  encodeTokens(ids: readonly TokenIds[]): Promise<EncodedTokens>;
}

/**
 * A model run's two outputs per text: the sentence vector, and the last layer's state of each of
 * its first `USE_LITE_MAX_TOKENS` tokens, row after row (tokens × `USE_LITE_DIM`; empty for a
 * text with no tokens). The sentence vector is the tanh layer over these rows' mean.
 */
export interface EncodedTokens {
  vectors: Float32Array[];
  states: Float32Array[];
}

export function createUseLiteEncoder(options: UseLiteOptions = {}): UseLiteEncoder {
  // int8 quantises a run's activations with one scale for the whole run (convert/quantize.ts), so
  // a text embedded beside others would get a slightly different vector than alone. One text per
  // run makes an int8 vector a function of its text only, as a verdict must be; at the pool's
  // runs of 2 it costs nothing measured (bench/README.md, "encoder hand-off").
  const maxBatch = options.precision === "int8" ? 1 : (options.maxBatch ?? 32);
  const maxRunTokens = options.maxRunTokens ?? 1024;
  let tokenizer: Tokenizer | undefined;
  let loading: Promise<{ session: ort.InferenceSession; info: EncoderInfo }> | undefined;

  // Synchronous and separate from the session, so windowing works before the model has loaded.
  const loadTokenizer = (): Tokenizer => {
    if (!tokenizer) {
      const path = join(sourceDir(), "vocab.json");
      let vocabulary: Vocabulary;
      try {
        vocabulary = JSON.parse(readFileSync(path, "utf8")) as Vocabulary;
      } catch (cause) {
        throw new ModelUnavailableError(path, "reinstall with `npm install`", cause);
      }
      tokenizer = createTokenizer(vocabulary);
    }
    return tokenizer;
  };
  const tokens = (text: string): number[] => loadTokenizer().encode(text);

  const load = async (): Promise<{ session: ort.InferenceSession; info: EncoderInfo }> => {
    const started = performance.now();
    const files = await ensureModel({
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      ...(options.precision ? { precision: options.precision } : {}),
      autoBuild: options.autoBuild ?? true,
    });
    const session = await ort.InferenceSession.create(files.modelPath, {
      intraOpNumThreads: options.intraOpThreads ?? 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
      // The arena stays: without it every tensor is a malloc, 23–30% slower per run, and the
      // freed blocks fragment glibc's per-thread arenas (a soak's RSS went up, not down). The
      // memory pattern goes: it plans one block per input shape on top of the arena's own
      // chunks, which the arena then keeps: 129 → 78 MiB more per session after 32 × 128-token
      // runs, at the same speed (bench/README.md, "soak").
      enableCpuMemArena: true,
      enableMemPattern: false,
    }).catch((cause: unknown) => {
      throw new ModelUnavailableError(files.modelPath, "unreadable; run `npm run build:models`", cause);
    });
    return {
      session,
      info: {
        id: files.id,
        ...(files.approximates ? { approximates: files.approximates } : {}),
        modelPath: files.modelPath,
        loadMs: performance.now() - started,
      },
    };
  };

  const loaded = (): ReturnType<typeof load> => {
    // A failed load is forgotten, so a later call can succeed once the file has been rebuilt.
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };

  const run = async (all: readonly TokenIds[], withStates: boolean): Promise<EncodedTokens> => {
    const vectors: Float32Array[] = all.map(() => new Float32Array(USE_LITE_DIM));
    const states: Float32Array[] = all.map(() => new Float32Array(0));
    const ids = all.map((t) => t.slice(0, USE_LITE_MAX_TOKENS));
    const order = ids.map((_, i) => i).filter((i) => (ids[i]?.length ?? 0) > 0);
    if (order.length === 0) return { vectors, states };
    const { session } = await loaded();
    // Only what is asked for leaves the runtime: the states are 128× the vector's size.
    const fetches = withStates ? [OUTPUT_NAME, TOKEN_STATES_NAME] : [OUTPUT_NAME];
    const length = (i: number) => ids[i]?.length ?? 0;
    order.sort((a, b) => length(a) - length(b));
    for (let from = 0, to = 1; from < order.length; from = to, to = from + 1) {
      // Shortest first, so a run's width is its last text's length; one text always runs.
      while (
        to < order.length &&
        to - from < maxBatch &&
        (to - from + 1) * length(order[to] as number) <= maxRunTokens
      )
        to++;
      const batch = order.slice(from, to);
      const width = length(batch.at(-1) as number);
      const grid = new Int32Array(batch.length * width).fill(PAD_ID);
      for (const [row, i] of batch.entries()) grid.set(ids[i] ?? [], row * width);
      const result = await session.run(
        { [IDS_INPUT]: new ort.Tensor("int32", grid, [batch.length, width]) },
        fetches,
      );
      const data = result[OUTPUT_NAME]?.data as Float32Array;
      const tokenStates = result[TOKEN_STATES_NAME]?.data as Float32Array | undefined;
      batch.forEach((i, row) => {
        vectors[i] = data.subarray(row * USE_LITE_DIM, (row + 1) * USE_LITE_DIM);
        if (tokenStates) {
          const start = row * width * USE_LITE_DIM;
          states[i] = tokenStates.slice(start, start + length(i) * USE_LITE_DIM);
        }
      });
    }
    return { vectors, states };
  };
  const embedTokens = async (all: readonly TokenIds[]) => (await run(all, false)).vectors;

  return {
    dim: USE_LITE_DIM,
    maxTokens: USE_LITE_MAX_TOKENS,
    load: async () => (await loaded()).info,
    embed: async (texts) => embedTokens(texts.map(tokens)),
    embedTokens,
    encodeTokens: (all) => run(all, true),
    tokenize: tokens,
    countTokens: (text) => tokens(text).length,
    tokenEnds: (text) => loadTokenizer().tokenEnds(text),
    close: async () => {
      const pending = loading;
      loading = undefined;
      if (pending) await (await pending.catch(() => undefined))?.session.release();
    },
  };
}
