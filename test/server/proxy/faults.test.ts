import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI, { APIError, InternalServerError, RateLimitError } from "openai";
import { afterAll, describe, expect, it } from "vitest";
import { streamOf } from "./fake-upstream.js";
import { makeProxyConfig, startTestProxy, useProxy } from "./setup.js";

/** The upstream failing in every way it can, and a client that leaves. */
const setup = useProxy({ upstreamTimeoutMs: 400 });
const client = () => new OpenAI({ baseURL: setup.baseURL, apiKey: "sk-test", maxRetries: 0 });
const ask = { model: "fake-model", messages: [{ role: "user" as const, content: "Hello there" }] };

const SENTENCES = Array.from({ length: 40 }, (_, i) => `This is sentence number ${i} of a long answer. `);

describe("an upstream that", () => {
  const stops: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  it("cannot be reached is a JSON 502", async () => {
    const config = await makeProxyConfig();
    // A port that was just free: nothing listens there, the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const proxy = await startTestProxy(config.dir, `http://127.0.0.1:${port}/v1`);
    stops.push(() => proxy.close(), config.cleanup);
    const error = await new OpenAI({
      baseURL: `${proxy.url}/v1`,
      apiKey: "sk-test",
      maxRetries: 0,
    }).chat.completions
      .create(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: "upstream_unreachable", type: "server_error" });
    expect((error as APIError).message).toMatch(/^502 the upstream could not be reached \(ECONNREFUSED\)$/);
  });

  it("does not answer in time is a JSON 504 after --upstream-timeout", async () => {
    setup.upstream.answer(() => ({ hang: true }));
    const error = await client()
      .chat.completions.create(ask)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 504, code: "upstream_timeout" });
    expect((error as APIError).message).toBe("504 the upstream did not answer within 400 ms");
    expect(await setup.upstream.received.at(-1)?.closed).toEqual({ finished: false });
  });

  it("stops in the middle of a stream ends it with an error event the SDK raises", async () => {
    setup.upstream.answer(() => ({ sse: streamOf(SENTENCES, { done: false }), holdOpen: true }));
    const stream = await client().chat.completions.create({ ...ask, stream: true });
    let text = "";
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toMatch(/the upstream did not answer within 400 ms/);
    // What was released had passed its checks: whole sentences.
    expect(SENTENCES.join("").startsWith(text)).toBe(true);
  });

  it("answers an error status passes it through, status and body", async () => {
    const body = {
      error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" },
    };
    setup.upstream.answer(() => ({
      json: JSON.stringify(body),
      status: 429,
      headers: { "retry-after": "7" },
    }));
    const error = await client()
      .chat.completions.create(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      status: 429,
      code: "rate_limit_exceeded",
      message: "429 Rate limit reached",
    });
    expect((error as RateLimitError).headers.get("retry-after")).toBe("7");
  });

  it("answers something that is not a chat completion is a 502, never passed on unchecked", async () => {
    setup.upstream.answer(() => ({ json: '{"text":"unchecked"}' }));
    const error = await client()
      .chat.completions.create(ask)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream_invalid_answer" });
  });
});

describe("text no check would read", () => {
  it("a second choice in a stream ends it with an error event, its text never passed on", async () => {
    const second = `data: ${JSON.stringify({
      id: "chatcmpl-x",
      object: "chat.completion.chunk",
      created: 1,
      model: "fake-model",
      choices: [{ index: 1, delta: { content: "card 4111 1111 1111 1111" }, finish_reason: null }],
    })}\n\n`;
    setup.upstream.answer(() => ({ sse: [...streamOf(["Hello. "], { done: false }), second] }));
    const res = await fetch(`${setup.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...ask, stream: true }),
    });
    const raw = await res.text();
    expect(raw).not.toContain("4111");
    expect(raw).toContain('"code":"upstream_invalid_answer"');
  });

  it("a legacy function_call's arguments are checked like a tool call's", async () => {
    const message = {
      role: "assistant",
      content: null,
      function_call: { name: "pay", arguments: '{"card":"4111 1111 1111 1111"}' },
    };
    setup.upstream.answer(() => ({
      json: JSON.stringify({
        id: "c",
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: "function_call" }],
      }),
    }));
    const answer = await client().chat.completions.create(ask);
    expect(answer.choices[0]).toEqual({
      index: 0,
      message: { role: "assistant", content: null },
      finish_reason: "content_filter",
    });
  });
});

describe("a client that goes away mid-stream", () => {
  it("cancels the upstream request", async () => {
    setup.upstream.answer(() => ({ sse: streamOf(SENTENCES, { done: false }), holdOpen: true }));
    const controller = new AbortController();
    const stream = await client().chat.completions.create(
      { ...ask, stream: true },
      { signal: controller.signal },
    );
    const upstream = setup.upstream.received.at(-1);
    let text = "";
    await (async () => {
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        if (text.length > 0) controller.abort();
      }
    })().catch(() => {});
    expect(text.length).toBeGreaterThan(0);
    expect(await upstream?.closed).toEqual({ finished: false });
  });
});

describe("another client: curl", () => {
  it("gets a benign stream byte for byte", async () => {
    setup.upstream.answer(() => ({ sse: streamOf(SENTENCES.slice(0, 5)) }));
    const body = JSON.stringify({ ...ask, stream: true });
    const curl = spawn("curl", [
      "-sN",
      `${setup.baseURL}/chat/completions`,
      "-H",
      "content-type: application/json",
      "-H",
      "authorization: Bearer sk-test",
      "--data-binary",
      body,
    ]);
    let out = "";
    curl.stdout.setEncoding("utf8").on("data", (piece: string) => {
      out += piece;
    });
    const code = await new Promise((resolve) => curl.once("close", resolve));
    expect(code).toBe(0);
    expect(out).toBe(streamOf(SENTENCES.slice(0, 5)).join(""));
  });
});
