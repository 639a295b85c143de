// A Node app using guardrail as a dependency: everything here must type-check against the package's
// `exports` and its built declarations, found by the package's name.
import {
  ConfigError,
  createGuardrail,
  type Guardrail,
  GuardrailBlockedError,
  InputError,
  type OutputCheckResponse,
} from "guardrail";
import {
  type ChatCompletionChunkLike,
  GuardrailClient,
  GuardrailHttpError,
  type InputCheckResponse,
} from "guardrail/client";

export async function screen(prompt: string, reply: string): Promise<boolean> {
  const guard: Guardrail = await createGuardrail({ profile: "strict", encoderWorkers: 1 });
  try {
    const input = await guard.inputCheck(prompt);
    const output: OutputCheckResponse = await guard.outputCheck(reply, { prompt, context: "" });
    const llm: number | null = input.checks.llm.score;
    return input.injection_detected || output.checks.pii.detected || llm === 1;
  } catch (error) {
    if (error instanceof InputError) return error.status === 413;
    if (error instanceof ConfigError) throw new Error(error.problems.join("\n"));
    throw error;
  } finally {
    await guard.close();
  }
}

/** The same stream guard in process and over HTTP, on an OpenAI-style stream. */
export async function relay(stream: AsyncIterable<ChatCompletionChunkLike>, write: (text: string) => void) {
  const guard = await createGuardrail({ config: "./guardrail" });
  const client = new GuardrailClient({ baseUrl: "http://localhost:8080", apiKey: "grk_x", retries: 2 });
  try {
    for await (const text of guard.guardStream(stream, { prompt: "hi" })) write(text);
    const remote: InputCheckResponse = await client.inputCheck("hello");
    return remote.injection_detected;
  } catch (error) {
    if (error instanceof GuardrailBlockedError) return error.released.length > 0;
    if (error instanceof GuardrailHttpError) return error.status === 401;
    throw error;
  } finally {
    await guard.close();
  }
}

// The types are real, not `any`: each line below must be an error.
// @ts-expect-error no such option
await createGuardrail({ profiles: "strict" });
// @ts-expect-error a message is a string
await (await createGuardrail()).inputCheck(42);
// @ts-expect-error input-check has no content_moderation
(await (await createGuardrail()).inputCheck("x")).checks.content_moderation;
