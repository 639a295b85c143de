import { resolve } from "node:path";
import { splitIntoWindows } from "../../text/windows.js";
import { ModelUnavailableError } from "../model-error.js";
import { inspectModelFolder, type ModelFolder } from "./folder.js";
import { loadTransformersModel } from "./load.js";
import { toProbabilities } from "./sequence-classifier.js";

export interface TokenClassifierOptions {
  /** Folder of the export (`optimum-cli export onnx --task token-classification`). */
  readonly dir: string;
  /** Tokens per window, special tokens included; defaults to the model's limit. */
  readonly maxLength?: number;
  readonly threads?: number;
}

/** One entity the model found: its label without the B-/I- prefix, and where it is in the text. */
export interface TaggedEntity {
  readonly label: string;
  readonly start: number;
  readonly end: number;
  /** Mean probability of its tokens' labels. */
  readonly score: number;
}

export interface HfTokenClassifier {
  readonly folder: ModelFolder;
  /** The entity names the model tags (its labels without B-/I- and without O). */
  readonly entityLabels: readonly string[];
  /** Entities of `text`, read in sentence windows that fit the model, in text order. */
  entities(text: string): Promise<TaggedEntity[]>;
  close(): Promise<void>;
}

// Marks tokenizers put on word starts or continuations: WordPiece "##", SentencePiece "▁", BPE "Ġ".
const MARKS = /^(##|▁|Ġ)/;

/**
 * Where each token of `text` lies, found by walking the text: transformers.js gives no offset
 * mapping. A token whose text cannot be found nearby ([UNK], a byte-level piece) gets no span
 * and is skipped when entities are cut out.
 */
export function alignTokens(text: string, tokens: readonly string[]): ([number, number] | undefined)[] {
  const lower = text.toLowerCase();
  let at = 0;
  return tokens.map((token) => {
    const piece = token.replace(MARKS, "").toLowerCase();
    if (!piece) return undefined;
    const found = lower.indexOf(piece, at);
    // Only whitespace or a few skipped characters (an [UNK] symbol) between this token and the last.
    if (found < 0 || found - at > 16) return undefined;
    at = found + piece.length;
    return [found, at];
  });
}

/** B-X starts an entity, I-X continues one of type X, X alone continues or starts; O ends it. */
function parseLabel(label: string): { kind: "O" | "B" | "I"; entity: string } {
  if (label === "O") return { kind: "O", entity: "" };
  const m = /^([BIES])[-_](.+)$/.exec(label);
  if (!m) return { kind: "I", entity: label };
  return { kind: m[1] === "B" || m[1] === "S" ? "B" : "I", entity: m[2] as string };
}

export async function loadHfTokenClassifier(options: TokenClassifierOptions): Promise<HfTokenClassifier> {
  const folder = await inspectModelFolder(resolve(options.dir), "token-classification");
  const maxLength = Math.min(options.maxLength ?? folder.maxLength, folder.maxLength);
  const { tokenizer, model } = await loadTransformersModel(
    folder,
    "AutoModelForTokenClassification",
    options.threads ?? 1,
  );
  const labels = folder.labels.map(parseLabel);
  const countTokens = (text: string): number => tokenizer.encode(text).length;

  async function tagWindow(text: string, offset: number): Promise<TaggedEntity[]> {
    const tokens = tokenizer.tokenize(text) as string[];
    const ids = tokenizer.encode(text) as number[];
    const bare = tokenizer.encode(text, { add_special_tokens: false }) as number[];
    // Special tokens in front ([CLS], <s>): where the text's own tokens start in the model's input.
    const lead = Math.max(0, ids.indexOf(bare[0] as number));
    const inputs = tokenizer([text], { truncation: true, max_length: maxLength });
    const { logits } = (await model(inputs)) as { logits: { dims: number[]; data: Float32Array } };
    const [, length, width] = logits.dims as [number, number, number];
    if (width !== labels.length) {
      throw new ModelUnavailableError(
        resolve(folder.dir, folder.weights.file),
        `its logits have ${width} labels but config.json names ${labels.length}; re-export the model`,
      );
    }
    const spans = alignTokens(text, tokens);
    const out: TaggedEntity[] = [];
    let open: { entity: string; start: number; end: number; sum: number; n: number } | undefined;
    const close = () => {
      if (open)
        out.push({
          label: open.entity,
          start: offset + open.start,
          end: offset + open.end,
          score: open.sum / open.n,
        });
      open = undefined;
    };
    for (let t = 0; t < tokens.length && lead + t < length; t++) {
      const p = toProbabilities(logits.data.subarray((lead + t) * width, (lead + t + 1) * width), false);
      let best = 0;
      for (let k = 1; k < p.length; k++) if ((p[k] as number) > (p[best] as number)) best = k;
      const { kind, entity } = labels[best] as { kind: "O" | "B" | "I"; entity: string };
      const span = spans[t];
      if (kind === "O" || !span) {
        if (kind === "O") close();
        continue;
      }
      const continues =
        open && open.entity === entity && (kind === "I" || (tokens[t] as string).startsWith("##"));
      if (!continues) {
        close();
        open = { entity, start: span[0], end: span[1], sum: 0, n: 0 };
      }
      const current = open as NonNullable<typeof open>;
      current.end = span[1];
      current.sum += p[best] as number;
      current.n++;
    }
    close();
    return out;
  }

  return {
    folder,
    entityLabels: [...new Set(labels.filter((l) => l.kind !== "O").map((l) => l.entity))],
    async entities(text) {
      const out: TaggedEntity[] = [];
      for (const w of splitIntoWindows(text, countTokens, { maxTokens: maxLength, overlap: 0 }))
        out.push(...(await tagWindow(w.text, w.start)));
      return out;
    },
    async close() {
      await model.dispose();
    },
  };
}
