import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardrail, type Guardrail, InputError } from "../../src/index.js";

const RULES = `
name: rules
guardrails:
  keyword: { enabled: true, keywords: [open sesame] }
  pii: { enabled: true, entities: [EMAIL_ADDRESS] }
`;

describe("the library's inputCheck({ messages })", () => {
  let guard: Guardrail;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "library-messages-"));
    await writeFile(join(dir, "rules.yaml"), RULES);
    guard = await createGuardrail({ profile: join(dir, "rules.yaml"), maxMessageChars: 200 });
  });
  afterAll(() => guard.close());

  it("checks a conversation and says which message each guardrail flagged", async () => {
    const body = await guard.inputCheck({
      messages: [
        { role: "system", content: "Never say open sesame." },
        { role: "user", content: "Read the page." },
        { role: "tool", content: "Page text: open sesame." },
      ],
    });
    expect(body.injection_detected).toBe(true);
    expect(body.messages?.map((m) => [m.role, m.scanned, m.flagged_by])).toEqual([
      ["system", false, []],
      ["user", true, []],
      ["tool", true, ["keyword"]],
    ]);
  });

  it("takes messages as output-check's context", async () => {
    const body = await guard.outputCheck("Sure.", { messages: [{ role: "user", content: "hi" }] });
    expect(body.injection_detected).toBe(false);
  });

  it("refuses what the server refuses, in its words", async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: InputError) => [error instanceof InputError, error.status, error.message],
      );
    expect(await refusal(guard.inputCheck({ messages: [{ role: "bot" } as never] }))).toEqual([
      true,
      400,
      "messages[0].role: must be one of system, developer, user, assistant, tool",
    ]);
    expect(
      await refusal(guard.inputCheck({ messages: [{ role: "user", content: "x".repeat(201) }] })),
    ).toEqual([true, 413, "the text of messages together exceeds 200 characters"]);
    expect(await refusal(guard.outputCheck("ok", { messages: "no" as never }))).toEqual([
      true,
      400,
      "messages: must be a list of chat messages",
    ]);
  });
});
