import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { z } from "zod";
import type { GuardrailDefinition } from "../types.js";
import { createLeakDetector } from "./detector/index.js";
import { requestPromptDetectors } from "./request-prompts.js";

const settings = z
  .strictObject({
    enabled: z.boolean().default(false),
    /** Omit to use the bundled model's threshold (chosen on held-out data; see models/system-prompt-protection). */
    threshold: z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").optional(),
    /** The app's system prompt, inline or as a file path relative to the profile. */
    system_prompt: z.string().optional(),
    system_prompt_file: z.string().min(1).optional(),
    /** Secret marker strings planted in the system prompt; seeing one in a response is a leak. */
    canaries: z.array(z.string().min(1)).default([]),
  })
  .refine((s) => !(s.system_prompt !== undefined && s.system_prompt_file !== undefined), {
    message: "set system_prompt or system_prompt_file, not both",
    path: ["system_prompt_file"],
  });

async function readSystemPrompt(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`system_prompt_file ${file}: cannot read (${(error as NodeJS.ErrnoException).code})`);
  }
}

/**
 * Flags responses that leak the system prompt: verbatim or near-verbatim overlap, paraphrase
 * (sentence similarity), canary strings, and a learned "I am disclosing my instructions" signal
 * that works even without a configured system prompt. The originating prompt sharpens it.
 */
export const systemPromptProtectionGuardrail = {
  id: "system_prompt_protection",
  appliesTo: ["output"],
  settings,
  usesEncoder: true,
  scored: true,
  async create(options, context) {
    const systemPrompt =
      options.system_prompt_file === undefined
        ? options.system_prompt
        : await readSystemPrompt(resolve(context.baseDir, options.system_prompt_file));
    const detector = await createLeakDetector({
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      canaries: options.canaries,
      ...(context.encoder ? { encoder: context.encoder } : {}),
    });
    // The profile's own system prompt wins; without one, the one a request's `messages` carry is read.
    const fromRequest = systemPrompt?.trim()
      ? undefined
      : requestPromptDetectors(options.canaries, context.encoder);
    return {
      async check(request) {
        const sent = request.systemPrompt?.trim() ? request.systemPrompt : undefined;
        const reader = fromRequest && sent !== undefined ? await fromRequest(sent) : detector;
        const threshold = options.threshold ?? reader.threshold;
        const { score } = await reader.score(request.text.raw, request.prompt?.raw);
        return { flagged: score >= threshold, score: Math.round(score * 1e4) / 1e4, threshold };
      },
    };
  },
  render: (finding) =>
    finding
      ? {
          enabled: true,
          detected: finding.flagged,
          score: finding.score ?? null,
          threshold: finding.threshold ?? null,
        }
      : { enabled: false, detected: false, score: null, threshold: null },
} satisfies GuardrailDefinition<z.output<typeof settings>>;
