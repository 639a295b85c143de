// The client against a fake node:http server that drops, stalls or refuses requests on cue.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GuardrailClient, GuardrailConnectionError, GuardrailHttpError } from "../../src/client/index.js";

type Handler = (req: IncomingMessage, res: ServerResponse, n: number, body: string) => void;
interface Fake {
  url: string;
  requests: { headers: IncomingMessage["headers"]; url: string; body: string; at: number }[];
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function fake(handler: Handler): Promise<Fake> {
  const requests: Fake["requests"] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      requests.push({ headers: req.headers, url: req.url ?? "", body, at: performance.now() });
      handler(req, res, requests.length, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const OK = { injection_detected: false, execution_time: 0.001, checks: {} };
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
const fast = { retryDelayMs: 5, maxRetryDelayMs: 20 };

describe("GuardrailClient", () => {
  it("posts to the spec's paths with the key, the App ID and a JSON body", async () => {
    const server = await fake((_req, res) => json(res, 200, OK));
    const client = new GuardrailClient({ baseUrl: `${server.url}/proxy`, apiKey: "grk_k", appId: "app_1" });
    expect(await client.inputCheck("hello")).toEqual(OK);
    await client.outputCheck("chunk", { prompt: "p", context: "before " });
    await new GuardrailClient({ baseUrl: server.url, apiKey: "grk_k" }).outputCheck("x");
    const [input, output, noApp] = server.requests;
    expect(input?.url).toBe("/proxy/apikey/api/guardrail/v1/input-check");
    expect(input?.headers).toMatchObject({
      "x-api-key": "grk_k",
      "x-app-id": "app_1",
      "content-type": "application/json",
    });
    expect(JSON.parse(input?.body ?? "")).toEqual({ message: "hello" });
    expect(output?.url).toBe("/proxy/apikey/api/guardrail/v1/output-check");
    expect(JSON.parse(output?.body ?? "")).toEqual({ message: "chunk", prompt: "p", context: "before " });
    expect(noApp?.headers["x-app-id"]).toBeUndefined();
    expect(JSON.parse(noApp?.body ?? "")).toEqual({ message: "x" });
  });

  it("retries dropped connections with growing, bounded waits, then succeeds", async () => {
    const server = await fake((req, res, n) => (n <= 2 ? req.socket.destroy() : json(res, 200, OK)));
    const client = new GuardrailClient({ baseUrl: server.url, apiKey: "k", retries: 3, ...fast });
    expect(await client.inputCheck("hi")).toEqual(OK);
    expect(server.requests).toHaveLength(3);
    const [a, b, c] = server.requests.map((r) => r.at);
    expect((b ?? 0) - (a ?? 0)).toBeGreaterThanOrEqual(2); // half of 5 ms at least
    expect((c ?? 0) - (b ?? 0)).toBeLessThan(20 + 200); // capped at 20 ms, plus slack for the round trip
  });

  it("gives up after its retries with a GuardrailConnectionError carrying the cause", async () => {
    const server = await fake((req) => req.socket.destroy());
    const client = new GuardrailClient({ baseUrl: server.url, apiKey: "k", retries: 2, ...fast });
    const error = await client.inputCheck("hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GuardrailConnectionError);
    expect(error).toMatchObject({ attempts: 3, timedOut: false });
    expect((error as Error).cause).toBeDefined();
    expect(server.requests).toHaveLength(3);
  });

  it("retries a request that times out, and says so when every attempt does", async () => {
    const slow = await fake((_req, res, n) => (n === 1 ? undefined : json(res, 200, OK)));
    const client = new GuardrailClient({ baseUrl: slow.url, apiKey: "k", timeoutMs: 100, ...fast });
    expect(await client.outputCheck("hi")).toEqual(OK);
    expect(slow.requests).toHaveLength(2);

    const silent = await fake(() => {});
    const hopeless = new GuardrailClient({
      baseUrl: silent.url,
      apiKey: "k",
      timeoutMs: 50,
      retries: 1,
      ...fast,
    });
    const error = await hopeless.inputCheck("hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GuardrailConnectionError);
    expect(error).toMatchObject({ attempts: 2, timedOut: true });
    expect((error as Error).message).toContain("did not answer within 50 ms");
  });

  it.each([400, 401, 403, 404, 413, 500])(
    "never retries a %i, and throws its error message",
    async (status) => {
      const server = await fake((_req, res) => json(res, status, { error: `nope ${status}` }));
      const client = new GuardrailClient({ baseUrl: server.url, apiKey: "k", ...fast });
      const error = await client.inputCheck("hi").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GuardrailHttpError);
      expect(error).toMatchObject({ status, message: `nope ${status}`, body: { error: `nope ${status}` } });
      expect(server.requests).toHaveLength(1);
    },
  );

  it("retries a 503 (a server shutting down, a proxy with no replica), then throws the last answer", async () => {
    const recovering = await fake((_req, res, n) =>
      n === 1 ? json(res, 503, { error: "Service unavailable" }) : json(res, 200, OK),
    );
    const client = new GuardrailClient({ baseUrl: recovering.url, apiKey: "k", ...fast });
    expect(await client.inputCheck("hi")).toEqual(OK);

    const down = await fake((_req, res) => res.writeHead(502).end("Bad gateway"));
    const error = await new GuardrailClient({ baseUrl: down.url, apiKey: "k", retries: 1, ...fast })
      .inputCheck("hi")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "GuardrailHttpError",
      status: 502,
      message: "HTTP 502",
      body: "Bad gateway",
    });
    expect(down.requests).toHaveLength(2);
  });

  it("retries a refused connection and stops when the caller aborts", async () => {
    const server = await fake(() => {});
    const closed = server.url;
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const client = new GuardrailClient({ baseUrl: closed, apiKey: "k", retries: 1, ...fast });
    const error = await client.inputCheck("hi").catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "GuardrailConnectionError", attempts: 2 });
    expect((error as Error).message).toContain("ECONNREFUSED");

    const controller = new AbortController();
    controller.abort(new Error("caller left"));
    await expect(client.inputCheck("hi", { signal: controller.signal })).rejects.toThrow("caller left");
  });
});
