// docs/conversations.md's agent example is run, not retyped: its conversation, checked with the
// bundled default profile, gives the body the page shows (all but execution_time).
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatMessageInput } from "../../src/api/types.js";
import { createGuardrail, type Guardrail } from "../../src/index.js";

const page = await readFile(new URL("../../docs/conversations.md", import.meta.url), "utf8");
const blocks = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] ?? ""));
const [conversation, answer] = blocks as [ChatMessageInput[], { execution_time: number }];

describe("docs/conversations.md", () => {
  let guard: Guardrail;
  beforeAll(async () => {
    guard = await createGuardrail();
  }, 60_000);
  afterAll(() => guard.close());

  it("shows the body its agent example gets", async () => {
    const body = await guard.inputCheck({ messages: conversation });
    expect({ ...body, execution_time: 0 }).toEqual({ ...answer, execution_time: 0 });
  });

  it("allows the same conversation with the harmless e-mail it describes", async () => {
    const benign =
      "Subject: Invoice\n\nHi, the March invoice is attached. Could you confirm the amount by Friday? Thanks, Bob";
    expect(page).toContain("Could you confirm the amount by Friday? Thanks, Bob");
    const messages = conversation.map((m) => (m.role === "tool" ? { ...m, content: benign } : m));
    const body = await guard.inputCheck({ messages });
    expect(body.injection_detected).toBe(false);
  });
});
