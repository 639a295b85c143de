import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";

const loaded = new Map<string, Promise<unknown>>();

// The files whose change means another model: its config, tokenizer and any weights file it may use.
const FILES = [
  "config.json",
  "tokenizer.json",
  "onnx/model.onnx",
  "model.onnx",
  "onnx/model_quantized.onnx",
  "model_quantized.onnx",
];

/** Size and modification time of the folder's model files: a new export gives a new stamp. */
async function stamp(dir: string): Promise<string> {
  const parts = await Promise.all(
    FILES.map((f) =>
      stat(join(dir, f)).then(
        (s) => `${f}:${s.size}:${s.mtimeMs}`,
        () => "",
      ),
    ),
  );
  return parts.filter(Boolean).join("|");
}

/**
 * One loaded model per folder, file stamp and options, for the whole process. A config reload (a key
 * revoked, an app rebound) recompiles every profile; loading a profile's own model again each time
 * (hundreds of MB and seconds for a transformer) grew the process with every reload. A model is
 * shared by every profile and reload that names it, so no user of it closes it: it lives as long as
 * the process. A failed load is forgotten, so the next reload tries again.
 */
export async function sharedModel<T>(
  kind: string,
  dir: string,
  options: unknown,
  load: () => Promise<T>,
): Promise<T> {
  const absolute = resolve(dir);
  const key = `${kind}\u0000${absolute}\u0000${JSON.stringify(options)}\u0000${await stamp(absolute)}`;
  let model = loaded.get(key) as Promise<T> | undefined;
  if (!model) {
    model = load();
    loaded.set(key, model);
    model.catch(() => loaded.delete(key));
  }
  return model;
}
