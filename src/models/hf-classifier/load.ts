import { ModelUnavailableError } from "../model-error.js";
import type { ModelFolder } from "./folder.js";
import { importOfflineTransformers, type Transformers } from "./runtime.js";

/** Which head: a text's or each token's logits, or the bare encoder's hidden states (feature extraction). */
type ModelClass = "AutoModelForSequenceClassification" | "AutoModelForTokenClassification" | "AutoModel";

export type LoadedTokenizer = Awaited<ReturnType<Transformers["AutoTokenizer"]["from_pretrained"]>>;
export type LoadedModel = Awaited<ReturnType<Transformers["AutoModel"]["from_pretrained"]>>;

/** The folder's tokenizer and ONNX model, from local files only, on the CPU. */
export async function loadTransformersModel(
  folder: ModelFolder,
  modelClass: ModelClass,
  threads: number,
): Promise<{ tokenizer: LoadedTokenizer; model: LoadedModel }> {
  const transformers = await importOfflineTransformers(folder.dir);
  const local = { local_files_only: true } as const;
  try {
    const tokenizer = await transformers.AutoTokenizer.from_pretrained(folder.dir, local);
    const model = await transformers[modelClass].from_pretrained(folder.dir, {
      ...local,
      subfolder: folder.weights.subfolder,
      dtype: folder.weights.dtype,
      device: "cpu",
      session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
    });
    return { tokenizer, model };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ModelUnavailableError(
      folder.dir,
      `@huggingface/transformers could not load this ${folder.modelType} model: ${reason}; re-export it with optimum-cli (check config.json model_type)`,
      cause,
    );
  }
}
