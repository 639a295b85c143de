import type { Encoder } from "../../src/models/encoder.js";
import { cleanText } from "../../src/text/normalize.js";
import type { TextWindow } from "../../src/text/windows.js";
import { splitIntoWindows } from "../../src/text/windows.js";
import { cacheStem, openVectorCache } from "../lib/vector-cache.js";
import type { Example } from "./example.js";

/** An example's engine windows (of `text.clean`, as the engine cuts them) and their USE-lite vectors. */
export interface Embedded {
  windows: TextWindow[];
  vectors: Float32Array[];
  /** Windows that hold the planted payload (indirect examples only). */
  planted: number[];
}

/** Window texts per `encoder.embed` call: part of what the vectors are (lib/vector-cache.ts). */
const CHUNK = 256;

/**
 * Embeds every example's encoder windows exactly as the engine does (src/engine/embedding.ts over
 * `text.clean`). Vectors are cached per window text, keyed by encoder id, so adding data only
 * embeds the new windows.
 */
export async function embedExamples(examples: Example[], encoder: Encoder): Promise<Embedded[]> {
  const info = await encoder.load();
  const cache = openVectorCache(encoder.dim, cacheStem("llm-windows", info.id));
  const cleaned = examples.map((e) => cleanText(e.text));
  const windows = cleaned.map((t) => splitIntoWindows(t, (x) => encoder.countTokens(x)));
  const missing = cache.missing(windows.flatMap((w) => w.map((x) => x.text)));
  await cache.fill(missing, CHUNK, async (batch) => (await encoder.embed(batch)).map((v) => [v]));
  return examples.map((e, i) => {
    const ws = windows[i] ?? [];
    const clean = cleaned[i] as string;
    const payload = e.payload ? clean.indexOf(cleanText(e.payload)) : -1;
    const end = payload + (e.payload ? cleanText(e.payload).length : 0);
    const planted = payload < 0 ? [] : ws.flatMap((w, j) => (w.start < end && w.end > payload ? [j] : []));
    return { windows: ws, vectors: ws.map((w) => cache.get(w.text)?.[0] as Float32Array), planted };
  });
}
