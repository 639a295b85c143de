import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { STREAM_MODES, type StreamMode } from "../../../src/stream/guard-stream.js";
import { streamOf } from "./fake-upstream.js";
import { readStream } from "./sdk-stream.js";
import { APP_SSN, type ProxySetup, useProxy } from "./setup.js";

/**
 * `guardrail proxy --stream-mode`: each mode through the official OpenAI SDK, a proxy per mode in
 * front of a fake upstream (docs/proxy.md, docs/streaming.md#modes).
 */
const proxies = Object.fromEntries(
  STREAM_MODES.map((mode) => [mode, useProxy({ streamMode: mode })]),
) as Record<StreamMode, ProxySetup>;
const SECRET = "sk-test-not-a-real-key-0123456789";
const ask = (content: string) => ({ model: "fake-model", messages: [{ role: "user" as const, content }] });

/** The streamed answer as the SDK reads it: its text, and each chunk's finish reason. */
async function streamed(setup: ProxySetup, pieces: string[], headers: Record<string, string> = {}) {
  setup.upstream.answer(() => ({ sse: streamOf(pieces) }));
  const client = new OpenAI({
    baseURL: setup.baseURL,
    apiKey: SECRET,
    maxRetries: 0,
    defaultHeaders: headers,
  });
  const stream = await client.chat.completions.create({ ...ask("Tell me"), stream: true });
  const { text, finishes } = await readStream(stream);
  return { text, finishes: finishes.filter((f) => f != null) };
}

const CALM = ["The Eiffel Tower is in Paris. ", "It was finished in 1889. ", "Millions visit it each year."];
const CARD = [
  "Sure, the card on file is 4111 1111 ",
  "1111 1111",
  " and it expires in May. ",
  "Anything else?",
];
// Only the whole answer shows an SSN: the words after the number make it one (see openai-sdk.test.ts).
const filler = Array.from({ length: 8 }, (_, i) => `Part ${i} of the form is about your address`).join(", ");
const SSN = [`${filler}, and my number is 536221234`, " and that is my SSN. ", "Thanks for asking!"];

describe.each(STREAM_MODES)("--stream-mode %s", (mode) => {
  it("passes a benign answer on whole, finishing with stop", async () => {
    const { text, finishes } = await streamed(proxies[mode], CALM);
    expect(text).toBe(CALM.join(""));
    expect(finishes).toEqual(["stop"]);
  });

  it("ends on the one-shot verdict: what only the whole answer shows still ends it with content_filter", async () => {
    const setup = proxies[mode];
    const { finishes } = await streamed(setup, SSN, { "X-App-ID": APP_SSN });
    expect(finishes).toEqual(["content_filter"]);
    expect(setup.logs.at(-1)).toMatchObject({ msg: "stream ended", kind: "blocked", guardrails: ["pii"] });
  });
});

describe("a card number split across chunks", () => {
  it.each(["chunk", "sentence"] as const)("%s: is never released", async (mode) => {
    const { text, finishes } = await streamed(proxies[mode], CARD);
    expect(text).not.toMatch(/4111/);
    expect(finishes).toEqual(["content_filter"]);
  });

  it("final: has reached the client when the check at the end flags it; the stream ends with content_filter, not stop", async () => {
    const { text, finishes } = await streamed(proxies.final, CARD);
    expect(text).toBe(CARD.join(""));
    expect(finishes).toEqual(["content_filter"]);
  });
});
