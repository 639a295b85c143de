// Each stream mode through the library on the bundled default profile (the encoder included):
// whatever the mode, the stream's last verdict is the one-shot output-check of the whole response.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CheckEvent,
  createGuardrail,
  type Guardrail,
  GuardrailBlockedError,
  type OutputCheckResponse,
  STREAM_MODES,
} from "../../src/index.js";

const untimed = ({ execution_time: _t, ...body }: OutputCheckResponse) => body;
const chunked = (text: string) => text.split(/(?<= )/);

const CALM =
  "The Eiffel Tower is in Paris. It was finished in 1889 for the World's Fair. " +
  "Today it is one of the most visited monuments in the world, with millions of visitors each year. " +
  "You can take the stairs to the second floor, or a lift all the way to the top.";
const LEAK = `${CALM} For anything else, write to jane.doe@example.com and she will answer.`;

describe("guardStream's modes in process", () => {
  let guard: Guardrail;
  beforeAll(async () => {
    guard = await createGuardrail({ profile: "default" });
  }, 60_000);
  afterAll(() => guard?.close());

  /** The stream's final check, or the flag that ended it. */
  async function run(text: string, mode: (typeof STREAM_MODES)[number]) {
    let final: OutputCheckResponse | undefined;
    const onCheck = (e: CheckEvent) => {
      if (e.final) final = e.response;
    };
    let released = "";
    try {
      for await (const piece of guard.guardStream(chunked(text), { mode, prompt: "Tell me", onCheck }))
        released += piece;
      return { released, final, error: undefined };
    } catch (error) {
      if (!(error instanceof GuardrailBlockedError)) throw error;
      return { released, final, error };
    }
  }

  it.each(STREAM_MODES)(
    "%s: the final verdict is the one-shot verdict of the whole response",
    async (mode) => {
      const oneShot = await guard.outputCheck(CALM, { prompt: "Tell me" });
      const { released, final, error } = await run(CALM, mode);
      expect(error).toBeUndefined();
      expect(released).toBe(CALM);
      expect(final && untimed(final)).toEqual(untimed(oneShot));
    },
  );

  it("final: releases everything, then flags the leak at the end with the one-shot body", async () => {
    const oneShot = await guard.outputCheck(LEAK, { prompt: "Tell me" });
    expect(oneShot.injection_detected).toBe(true);
    const { released, error } = await run(LEAK, "final");
    expect(released).toBe(LEAK); // already with the user: final mode is an audit
    expect(error?.final).toBe(true);
    expect(error?.released).toBe(LEAK);
    expect(error && untimed(error.response)).toEqual(untimed(oneShot));
  });

  it.each(["chunk", "sentence"] as const)(
    "%s: stops the leak before the address is released",
    async (mode) => {
      const { released, error } = await run(LEAK, mode);
      expect(error?.response.checks.pii.entities).toContain("EMAIL_ADDRESS");
      expect(released).not.toContain("jane");
      expect(error?.released).toBe(released);
    },
  );
});
