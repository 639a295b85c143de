import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { CANARY, INPUT_TEXTS, OUTPUT_TEXTS, SYSTEM_PROMPT } from "../../bench/lib/texts.js";

/**
 * Every model-backed guardrail's answer for a fixed set of texts, as the response body gives it
 * (scores rounded as rendered, verdicts), without `execution_time`: what must not move when the
 * work around the encoder changes (issue 25). Generated once from the code before the change
 * (test/fixtures/check-bodies/make.ts) and compared by test/engine/check-bodies.test.ts.
 */

/** The bench's full profiles (bench/full-check.ts), with a few rules instead of the bundled lists. */
const PROFILES = {
  input: {
    name: "input-all",
    guardrails: {
      llm: { enabled: true },
      vector: { enabled: true },
      keyword: { enabled: true, keywords: ["developer mode", "system prompt"] },
      pii: { enabled: true },
    },
  },
  output: {
    name: "output-all",
    guardrails: {
      content_moderation: { enabled: true },
      pii: { enabled: true },
      system_prompt_protection: { enabled: true, system_prompt: SYSTEM_PROMPT, canaries: [CANARY] },
    },
  },
} as const;

/**
 * Prompts alone, with a short reference (one window), with a 33-character one (two windows, so
 * sentence pieces too, as under the bench's load) and all joined (many windows and pieces).
 */
export const INPUTS: readonly string[] = [
  ...INPUT_TEXTS,
  ...INPUT_TEXTS.map((t, i) => `${t} (ref ${900_000 + i})`),
  ...INPUT_TEXTS.map((t, i) => `${t} (ref ${`k${i}`.padEnd(33, "x")})`),
  INPUT_TEXTS.join("\n\n"),
];

/** Responses alone and with their prompts, and all joined. */
export const OUTPUTS: readonly { message: string; prompt?: string }[] = [
  ...OUTPUT_TEXTS.map(({ response }) => ({ message: response })),
  ...OUTPUT_TEXTS.map(({ prompt, response }, i) => ({ message: `${response} (ref ${i})`, prompt })),
  { message: OUTPUT_TEXTS.map((t) => t.response).join("\n\n") },
];

export type CheckBodies = Record<"input" | "output", unknown[]>;

interface Guard {
  inputCheck(message: string): Promise<{ execution_time: number }>;
  outputCheck(message: string, options?: { prompt?: string }): Promise<{ execution_time: number }>;
  close(): Promise<void>;
}

type CreateGuardrail = (options: { profile: string; encoderPrecision: "fp32" | "int8" }) => Promise<Guard>;

const withoutTime = ({ execution_time: _, ...body }: { execution_time: number }) => body;

/** The bodies `createGuardrail` (of whichever checkout) gives for INPUTS and OUTPUTS. */
export async function checkBodies(
  createGuardrail: CreateGuardrail,
  precision: "fp32" | "int8",
): Promise<CheckBodies> {
  const dir = await mkdtemp(join(tmpdir(), "check-bodies-"));
  try {
    await mkdir(dir, { recursive: true });
    const file = async (mode: "input" | "output") => {
      const path = join(dir, `${PROFILES[mode].name}.yaml`);
      await writeFile(path, stringify(PROFILES[mode]));
      return createGuardrail({ profile: path, encoderPrecision: precision });
    };
    const input = await file("input");
    const output = await file("output");
    try {
      // One at a time, as separate requests arrive (no check shares a model run with another).
      const bodies: CheckBodies = { input: [], output: [] };
      for (const text of INPUTS) bodies.input.push(withoutTime(await input.inputCheck(text)));
      for (const { message, prompt } of OUTPUTS)
        bodies.output.push(
          withoutTime(await output.outputCheck(message, prompt === undefined ? {} : { prompt })),
        );
      return bodies;
    } finally {
      await Promise.all([input.close(), output.close()]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
