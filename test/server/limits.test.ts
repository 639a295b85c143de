import { describe, expect, it } from "vitest";
import { expectError, INPUT, makeApp, OUTPUT, post, useConfigDir } from "./fixtures.js";

const setup = useConfigDir();

function streamOf(total: number, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(chunk, total - sent);
      controller.enqueue(
        new TextEncoder().encode(sent === 0 ? `{"message":"${"a".repeat(size - 12)}` : "a".repeat(size)),
      );
      sent += size;
    },
  });
}

describe("Content-Type", () => {
  it.each(["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8"])(
    "accepts %s",
    async (type) => {
      const { app } = await makeApp(setup.fixture);
      const res = await app.request(INPUT, {
        method: "POST",
        headers: { ...setup.auth, "content-type": type },
        body: '{"message":"hi"}',
      });
      expect(res.status).toBe(200);
    },
  );
  it.each([
    undefined,
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/merge-patch+json",
    "application/jsonx",
  ])("refuses %s with 415", async (type) => {
    const { app } = await makeApp(setup.fixture);
    const headers: Record<string, string> = { ...setup.auth, ...(type ? { "content-type": type } : {}) };
    const res = await app.request(INPUT, { method: "POST", headers, body: new Blob(['{"message":"hi"}']) });
    await expectError(res, 415, "Content-Type must be application/json");
  });
});

describe("size limits", () => {
  const limits = { bodyBytes: 1000, messageChars: 50 };
  it("413 when Content-Length announces too much, before reading", async () => {
    const { app } = await makeApp(setup.fixture, { limits });
    const res = await app.request(
      ...post(INPUT, { message: "x" }, { ...setup.auth, "content-length": "1001" }),
    );
    await expectError(res, 413, "Request body exceeds 1000 bytes");
  });
  it("413 when a streamed body without Content-Length grows too large", async () => {
    const { app } = await makeApp(setup.fixture, { limits });
    const init = {
      method: "POST",
      headers: { ...setup.auth, "content-type": "application/json" },
      body: streamOf(5000, 300),
      duplex: "half",
    };
    await expectError(await app.request(INPUT, init as RequestInit), 413, "Request body exceeds 1000 bytes");
  });
  it("413 when Content-Length lies low: the bytes that arrive are what count", async () => {
    const { app } = await makeApp(setup.fixture, { limits });
    const res = await app.request(
      ...post(INPUT, { message: "x".repeat(2000) }, { ...setup.auth, "content-length": "20" }),
    );
    await expectError(res, 413, "Request body exceeds 1000 bytes");
  });
  it("defaults to 1 MiB", async () => {
    const { app } = await makeApp(setup.fixture);
    const res = await app.request(...post(INPUT, { message: "x".repeat(1024 * 1024) }, setup.auth));
    await expectError(res, 413, "Request body exceeds 1048576 bytes");
  });
  it("413 when message or prompt has more characters than allowed; exactly the limit passes", async () => {
    const { app } = await makeApp(setup.fixture, { limits });
    await expectError(
      await app.request(...post(INPUT, { message: "x".repeat(51) }, setup.auth)),
      413,
      "message exceeds 50 characters",
    );
    await expectError(
      await app.request(...post(OUTPUT, { message: "ok", prompt: "y".repeat(51) }, setup.auth)),
      413,
      "prompt exceeds 50 characters",
    );
    expect((await app.request(...post(INPUT, { message: "x".repeat(50) }, setup.auth))).status).toBe(200);
  });
  it("413 when context and message together have more characters than allowed", async () => {
    const { app } = await makeApp(setup.fixture, { limits });
    const chunk = (context: string, message: string) => post(OUTPUT, { message, context }, setup.auth);
    await expectError(
      await app.request(...chunk("c".repeat(30), "m".repeat(21))),
      413,
      "context and message together exceed 50 characters",
    );
    await expectError(
      await app.request(...chunk("\ufdfa".repeat(2), "m".repeat(20))),
      413,
      "context and message together exceed 50 characters after Unicode normalization (NFKC)",
    );
    expect((await app.request(...chunk("c".repeat(30), "m".repeat(20)))).status).toBe(200);
  });
  it("counts characters as code points: 50 emoji fit a 50-character limit", async () => {
    const { app } = await makeApp(setup.fixture, { limits });
    expect((await app.request(...post(INPUT, { message: "😀".repeat(50) }, setup.auth))).status).toBe(200);
    expect((await app.request(...post(INPUT, { message: "😀".repeat(51) }, setup.auth))).status).toBe(413);
  });
  it("holds after Unicode normalisation too: 20,000 × U+FDFA is 360,000 characters under NFKC", async () => {
    const { app } = await makeApp(setup.fixture);
    await expectError(
      await app.request(...post(INPUT, { message: "\ufdfa".repeat(20_000) }, setup.auth)),
      413,
      "message exceeds 100000 characters after Unicode normalization (NFKC)",
    );
    await expectError(
      await app.request(...post(OUTPUT, { message: "ok", prompt: "\ufdfa".repeat(5_556) }, setup.auth)),
      413,
      "prompt exceeds 100000 characters after Unicode normalization (NFKC)",
    );
    // 5,555 of them expand to 99,990 characters: within the limit.
    expect((await app.request(...post(INPUT, { message: "\ufdfa".repeat(5_555) }, setup.auth))).status).toBe(
      200,
    );
  });
  it("defaults to 100000 characters", async () => {
    const { app } = await makeApp(setup.fixture);
    await expectError(
      await app.request(...post(INPUT, { message: "x".repeat(100_001) }, setup.auth)),
      413,
      "message exceeds 100000 characters",
    );
  });
});
