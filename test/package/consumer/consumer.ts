// A Node app using guardrail as a dependency: everything here must type-check against the package's
// `exports` and its built declarations, found by the package's name.
import { ConfigError, createGuardrail, type Guardrail, InputError } from "guardrail";

export async function screen(prompt: string, reply: string): Promise<boolean> {
  const guard: Guardrail = await createGuardrail({ profile: "strict", encoderWorkers: 1 });
  try {
    const input = await guard.inputCheck(prompt);
    const output = await guard.outputCheck(reply, { prompt });
    const flagged: boolean = input.injection_detected || output.injection_detected;
    const seconds: number = output.execution_time;
    return flagged && seconds >= 0;
  } catch (error) {
    if (error instanceof InputError) return error.status === 413;
    if (error instanceof ConfigError) throw new Error(error.problems.join("\n"));
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
