// The hooks that hold the server's responses to docs/openapi.yaml must fail on a response the
// document does not describe, or every test that goes through them proves nothing. Each drift
// below is one the code could plausibly make.
import { createServer as createHttpServer } from "node:http";
import { createServer as createTcpServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loadOpenApiDocument } from "../../src/server/openapi.js";
import {
  checkedResponses,
  documentedApp,
  documentedFetch,
  UndocumentedResponseError,
} from "../helpers/openapi/conformance.js";
import { createResponseValidator, type Exchange } from "../helpers/openapi/response-validator.js";
import { INPUT, makeApp, OUTPUT, post, useConfigDir } from "./fixtures.js";
import { open, rawPost, received } from "./sockets.js";

const setup = useConfigDir();
const validate = await createResponseValidator(await loadOpenApiDocument());

const off = { enabled: false, detected: false, matched: [] };
const INPUT_BODY = {
  injection_detected: false,
  execution_time: 0.001,
  checks: {
    llm: { enabled: true, score: 0.02, threshold: 0.45 },
    keyword: off,
    regex: off,
    pii: { enabled: false, detected: false, entities: [] },
    vector: { enabled: false, score: null },
  },
};
const USER = { role: "user", content: "hi" };
const VERDICT = { index: 0, role: "user", scanned: true, flagged_by: [], skipped_parts: 0 };
const JSON_HEADERS = { "content-type": "application/json", "x-request-id": "req-1" };
const ok = (overrides: Partial<Exchange> = {}): Exchange => ({
  method: "POST",
  path: INPUT,
  status: 200,
  headers: JSON_HEADERS,
  body: JSON.stringify(INPUT_BODY),
  ...overrides,
});

describe("the response validator", () => {
  it("passes a response the document describes", () => {
    expect(validate(ok())).toEqual([]);
    expect(validate(ok({ status: 401, body: '{"error":"Invalid API key"}' }))).toEqual([]);
    expect(validate(ok({ requestBody: '{"message":"hi","prompt":42}' }))).toEqual([]);
    // A conversation: `messages` in, one verdict per message out.
    const conversation = { ...INPUT_BODY, messages: [VERDICT] };
    expect(
      validate(ok({ requestBody: JSON.stringify({ messages: [USER] }), body: JSON.stringify(conversation) })),
    ).toEqual([]);
    expect(validate(ok({ requestBody: JSON.stringify({ message: null, messages: [USER] }) }))).toEqual([]);
  });

  it.each([
    [
      "an extra top-level field",
      ok({ body: JSON.stringify({ ...INPUT_BODY, verdict: "allow" }) }),
      /additional/,
    ],
    [
      "an extra check",
      ok({
        body: JSON.stringify({ ...INPUT_BODY, checks: { ...INPUT_BODY.checks, content_moderation: off } }),
      }),
      /additional/,
    ],
    [
      "a disabled check that reports a match",
      ok({
        body: JSON.stringify({
          ...INPUT_BODY,
          checks: { ...INPUT_BODY.checks, keyword: { ...off, matched: ["x"] } },
        }),
      }),
      /oneOf/,
    ],
    ["a status the document does not list", ok({ status: 403, body: '{"error":"Forbidden"}' }), /status 403/],
    [
      "an error message the spec does not give",
      ok({ status: 401, body: '{"error":"Unauthorized"}' }),
      /constant/,
    ],
    [
      "an error body with more than `error`",
      ok({ status: 401, body: '{"error":"Invalid API key","code":1}' }),
      /additional/,
    ],
    [
      "another content type",
      ok({ headers: { ...JSON_HEADERS, "content-type": "text/plain" } }),
      /content type/,
    ],
    ["no X-Request-ID", ok({ headers: { "content-type": "application/json" } }), /X-Request-ID is required/],
    [
      "a 405 without Allow",
      ok({ method: "GET", status: 405, body: '{"error":"Method not allowed"}' }),
      /Allow/,
    ],
    ["an unknown path answered 200", ok({ path: "/apikey/api/guardrail/v2/input-check" }), /status 200/],
    ["a body on HEAD", ok({ method: "HEAD", path: "/healthz", body: "{}" }), /body was sent/],
    ["a 200 to a request the document refuses", ok({ requestBody: '{"text":"hi"}' }), /refuses request/],
    [
      "a 200 to both message and messages",
      ok({ requestBody: JSON.stringify({ message: "hi", messages: [USER] }) }),
      /refuses request/,
    ],
    [
      "a 200 to tool calls on a user message",
      ok({ requestBody: JSON.stringify({ messages: [{ ...USER, tool_calls: [] }] }) }),
      /refuses request/,
    ],
    [
      "a message verdict with a field the document does not give",
      ok({ body: JSON.stringify({ ...INPUT_BODY, messages: [{ ...VERDICT, score: 1 }] }) }),
      /additional/,
    ],
    [
      "a 400 to messages the document accepts",
      ok({
        status: 400,
        requestBody: JSON.stringify({ messages: [USER] }),
        body: '{"error":"messages[0].role: must be one of system, developer, user, assistant, tool"}',
      }),
      /accepts this request/,
    ],
    [
      "a 400 to a request the document accepts",
      ok({
        status: 400,
        requestBody: '{"message":"hi"}',
        body: '{"error":"message is required and must be a string"}',
      }),
      /accepts this request/,
    ],
  ])("fails %s", (_name, exchange, problem) => {
    expect(validate(exchange).join("\n")).toMatch(problem);
  });
});

describe("each hook fails the test on a drifted response", () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });
  const listen = async (server: Server) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as { port: number }).port;
  };
  const drifted = JSON.stringify({ ...INPUT_BODY, verdict: "allow" });

  it("app.request, as makeApp returns it", async () => {
    const answer = async (_path: string, _init?: RequestInit) =>
      new Response(drifted, { headers: JSON_HEADERS });
    const app = documentedApp({ request: answer });
    await expect(app.request(...post(INPUT, { message: "hi" }))).rejects.toBeInstanceOf(
      UndocumentedResponseError,
    );
    // And the real app goes through it: the hook ran on its response.
    const before = checkedResponses.count;
    const { app: real } = await makeApp(setup.fixture);
    expect((await real.request(...post(OUTPUT, { message: "hi", context: "Say " }, setup.auth))).status).toBe(
      200,
    );
    expect(checkedResponses.count).toBe(before + 1);
  });

  it("fetch", async () => {
    const port = await listen(createHttpServer((_req, res) => res.writeHead(200, JSON_HEADERS).end(drifted)));
    await expect(documentedFetch(`http://127.0.0.1:${port}${INPUT}`, { method: "POST" })).rejects.toThrow(
      /does not describe POST \/apikey\/api\/guardrail\/v1\/input-check → 200/,
    );
  });

  it("raw sockets", async () => {
    const answer = `HTTP/1.1 418 I'm a teapot\r\nContent-Type: application/json\r\nContent-Length: 2\r\nX-Request-ID: r\r\n\r\n{}`;
    const port = await listen(createTcpServer((socket) => socket.once("data", () => socket.end(answer))));
    const socket = await open(port);
    const result = received(socket);
    socket.write(rawPost("key", '{"message":"hi"}'));
    await expect(result).rejects.toThrow(/POST \/apikey\/api\/guardrail\/v1\/input-check → 418/);
  });
});
