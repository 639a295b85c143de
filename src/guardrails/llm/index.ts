import { resolve } from "node:path";
import { z } from "zod";
import { loadHfSequenceClassifier, readForLabel } from "../../models/hf-classifier/index.js";
import { sharedModel } from "../../models/hf-classifier/shared.js";
import type { CheckRequest, Detector, GuardrailDefinition } from "../types.js";
import { DEFAULT_LLM_MODEL_DIR, loadInjectionClassifier, onScale, type TextContext } from "./classifier.js";

const settings = z.strictObject({
  enabled: z.boolean().default(false),
  /**
   * A score at or above the threshold counts as injection (docs/service-spec.md, "Security profile"). Omit it to
   * use the bundled model's threshold, chosen on held-out data (see models/llm/MODEL_CARD.md).
   */
  threshold: z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").optional(),
  /**
   * Bring your own model: a local Hugging Face text-classification export (ONNX weights,
   * tokenizer.json, config.json) used instead of the bundled classifier. Never downloaded.
   */
  model: z
    .strictObject({
      /** The export folder, relative to the profile file. */
      path: z.string().min(1),
      /** The `id2label` name that means injection (e.g. INJECTION, LABEL_1, MALICIOUS). */
      injection_label: z.string().min(1),
      /** Tokens per window; defaults to the model's own limit. */
      max_length: z.number().int().min(8).optional(),
    })
    .optional(),
});

type LlmSettings = z.output<typeof settings>;

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** A user's own model has no bundled threshold: 0.5 on its label's probability unless the profile says. */
const BYO_DEFAULT_THRESHOLD = 0.5;

async function ownModelDetector(
  model: NonNullable<LlmSettings["model"]>,
  threshold: number,
  baseDir: string,
): Promise<Detector> {
  const options = {
    dir: resolve(baseDir, model.path),
    ...(model.max_length === undefined ? {} : { maxLength: model.max_length }),
  };
  // Shared with every profile and reload that names the same folder (sharedModel): never closed here.
  const [loaded, bundled] = await Promise.all([
    sharedModel("text-classification", options.dir, options, () => loadHfSequenceClassifier(options)),
    loadInjectionClassifier(DEFAULT_LLM_MODEL_DIR),
  ]);
  const classifier = readForLabel(loaded, model.injection_label);
  return {
    async check(request) {
      // The bundled n-grams choose which windows of a very long text the model reads, and answer
      // for the ones it does not, on this threshold's scale (see classifier.ts onScale).
      const { score: read, skipped } = await classifier.assess(request.text.raw, (texts) =>
        bundled.triage(texts),
      );
      const rest = skipped > 0 ? bundled.explain(request.text.raw) : undefined;
      const score = rest ? Math.max(read, onScale(rest.score, rest.threshold, threshold)) : read;
      return { flagged: score >= threshold, score: round(score), threshold };
    },
  };
}

/**
 * A tool result's content is data an attacker may have written, not the user's request; anything
 * else (a user turn, tool-call arguments, a single `message`) is judged as a request.
 */
export const textContext = (request: Pick<CheckRequest, "role" | "source">): TextContext => ({
  data: request.role === "tool" && request.source === "content",
});

/**
 * Says why the n-gram model alone scored a text: its threshold differs from the MLP's (0.590
 * against 0.454 for the bundled model), and `check ""` showed it with no word why.
 */
function fallbackNote(
  uses: "ngrams" | "embeddings",
  embedded: { windows: readonly unknown[] } | undefined,
  ownThreshold: boolean,
): string | undefined {
  if (uses !== "ngrams") return undefined;
  const why =
    embedded === undefined
      ? "no sentence encoder"
      : embedded.windows.length === 0
        ? "no sentence windows to embed (empty or blank text)"
        : undefined;
  if (why === undefined) return undefined;
  return `${why}: the n-gram fallback scored it${ownThreshold ? ", against its own threshold" : ""}`;
}

/**
 * The injection classifier: an MLP over each sentence window's shared USE-lite vector, the n-gram
 * model's logits and a few cues; the worst window counts (an injection hidden in a long e-mail
 * counts). Without an encoder (no `request.embedding`) it falls back to the n-grams alone, with
 * their own bundled threshold (see models/llm/MODEL_CARD.md).
 */
export const llmGuardrail = {
  id: "llm",
  appliesTo: ["input"],
  settings,
  usesEncoder: true,
  scored: true,
  async create(options, context) {
    if (options.model) {
      return ownModelDetector(options.model, options.threshold ?? BYO_DEFAULT_THRESHOLD, context.baseDir);
    }
    const classifier = await loadInjectionClassifier(DEFAULT_LLM_MODEL_DIR);
    return {
      triage: (texts) => classifier.triage(texts),
      async check(request) {
        const embedded = await request.embedding?.();
        const result = classifier.explain(request.text.raw, embedded, textContext(request));
        const threshold = options.threshold ?? result.threshold;
        const note = fallbackNote(result.uses, embedded, options.threshold === undefined);
        return {
          flagged: result.score >= threshold,
          score: round(result.score),
          threshold,
          ...(note ? { note } : {}),
        };
      },
    };
  },
  render: (finding) =>
    finding
      ? { enabled: true, score: finding.score ?? null, threshold: finding.threshold ?? null }
      : { enabled: false, score: null, threshold: null },
} satisfies GuardrailDefinition<LlmSettings>;
