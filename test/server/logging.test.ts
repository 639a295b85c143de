import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maskAppId } from "../../src/config/apps.js";
import { APP_STRICT, type ConfigFixture, INPUT, makeApp, makeConfigDir, OUTPUT, post } from "./fixtures.js";
import { parseResponse, rawPost, sendAllThenRead, startTestServer, stopServersAfterEach } from "./sockets.js";

let fixture: ConfigFixture;
beforeAll(async () => {
  fixture = await makeConfigDir();
});
afterAll(() => fixture.cleanup());

const MESSAGE = "canary-message-7f3a jane.doe@example.com";
const PROMPT = "canary-prompt-91bc";

describe("request logs", () => {
  it("hold one line per request and never the message, the prompt, a key or a full App ID", async () => {
    const { app, logs } = await makeApp(fixture, { limits: { messageChars: 60, bodyBytes: 4096 } });
    const good = { "X-API-Key": fixture.keys.current, "X-App-ID": APP_STRICT };
    const requests = [
      post(INPUT, { message: MESSAGE }, good),
      post(OUTPUT, { message: MESSAGE, prompt: PROMPT }, good),
      post(OUTPUT, { message: MESSAGE, prompt: PROMPT }, { "X-API-Key": fixture.keys.current }),
      post(INPUT, { message: MESSAGE }, { "X-API-Key": fixture.keys.revoked, "X-App-ID": APP_STRICT }),
      post(INPUT, { message: MESSAGE }, { "X-API-Key": fixture.keys.next, "X-App-ID": "app_unknown_123" }),
      post(INPUT, `{"message": "${MESSAGE}`, good),
      post(OUTPUT, { message: MESSAGE, prompt: PROMPT.repeat(10) }, good),
      post(INPUT, { message: MESSAGE.repeat(200) }, good),
    ];
    const statuses = [];
    for (const [path, init] of requests)
      statuses.push((await app.request(`${path}?key=${fixture.keys.next}`, init)).status);
    expect(statuses).toEqual([200, 200, 200, 401, 404, 400, 413, 413]);
    expect(logs).toHaveLength(requests.length);

    const text = logs.map((record) => JSON.stringify(record)).join("\n");
    for (const secret of [
      "canary-message",
      "jane.doe",
      "canary-prompt",
      APP_STRICT,
      ...Object.values(fixture.keys),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(logs[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: "info",
      msg: "request",
      request_id: expect.any(String),
      method: "POST",
      path: INPUT,
      status: 200,
      latency_ms: expect.any(Number),
      app: maskAppId(APP_STRICT),
      profile: "strict",
    });
    expect(logs[2]).toMatchObject({ app: "default", profile: "main" });
    expect(logs[3]).toMatchObject({ app: null, status: 401 });
  });
});

describe("X-Request-ID", () => {
  it("echoes a sane incoming id", async () => {
    const { app, logs } = await makeApp(fixture);
    const res = await app.request(...post(INPUT, { message: "hi" }, { "X-Request-ID": "req-42.abc:1" }));
    expect(res.headers.get("x-request-id")).toBe("req-42.abc:1");
    expect(logs[0]?.request_id).toBe("req-42.abc:1");
  });
  it.each([
    ["with spaces", "a b"],
    ["too long", "x".repeat(129)],
    ["with quotes", 'a"b'],
    ["absent", undefined],
  ])("generates one when the incoming id is %s", async (_name, incoming) => {
    const { app } = await makeApp(fixture);
    const res = await app.request("/nowhere", incoming ? { headers: { "X-Request-ID": incoming } } : {});
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });
});

describe("traceparent", () => {
  const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  const valid = `00-${TRACE}-00f067aa0ba902b7-01`;
  const good = () => ({ "X-API-Key": fixture.keys.current, "X-App-ID": APP_STRICT });

  it("writes a valid header's trace id into the request's log line, and nothing else of it", async () => {
    const { app, logs } = await makeApp(fixture);
    const res = await app.request(...post(INPUT, { message: "hi" }, { ...good(), traceparent: valid }));
    expect(res.status).toBe(200);
    expect(logs[0]?.trace_id).toBe(TRACE);
    expect(JSON.stringify(logs[0])).not.toContain("00f067aa0ba902b7");
  });

  it.each([
    ["absent", undefined],
    ["all-zero trace id", `00-${"0".repeat(32)}-00f067aa0ba902b7-01`],
    ["malformed", "not-a-trace"],
    ["version ff", `ff-${TRACE}-00f067aa0ba902b7-01`],
  ])("leaves the field out when the header is %s, and answers as usual", async (_name, header) => {
    const { app, logs } = await makeApp(fixture);
    const res = await app.request(...post(INPUT, { message: "hi" }, { ...good(), traceparent: header }));
    expect(res.status).toBe(200);
    expect(logs[0]).not.toHaveProperty("trace_id");
    expect(logs[0]).toMatchObject({ msg: "request", status: 200 });
  });

  it("keeps a hostile header out of the log line, which stays one line of JSON", async () => {
    const { app, logs } = await makeApp(fixture);
    const canary = "canary-header-5d1e";
    const hostile = [
      `${valid}", "level": "error", "msg": "${canary}`,
      `${valid}\\n{"injected": "${canary}"}`,
      `00-${TRACE}-00f067aa0ba902b7-01-${canary}`,
      `${valid},${canary}`,
      `${canary}${"x".repeat(12_000)}`,
      `01-${TRACE}-00f067aa0ba902b7-01-${"\u00e9".repeat(20)}${canary}`,
    ];
    for (const traceparent of hostile) {
      const headers = { ...good(), traceparent, "X-Other": canary, Cookie: `session=${canary}` };
      expect((await app.request(...post(INPUT, { message: "hi" }, headers))).status).toBe(200);
    }
    expect(logs).toHaveLength(hostile.length);
    for (const [i, record] of logs.entries()) {
      const line = JSON.stringify(record);
      expect(line).not.toContain(canary);
      expect(line).not.toContain("\n");
      expect(JSON.parse(line)).toEqual(record);
      expect(record.level).toBe("info");
      // Only the later-version header (the spec lets it carry more fields) is a valid one.
      expect(record.trace_id, hostile[i]?.slice(0, 40)).toBe(i === 5 ? TRACE : undefined);
    }
  });
});

describe("traceparent over a real socket", () => {
  stopServersAfterEach();
  const TRACE = "0af7651916cd43dd8448eb211c80319c";
  const header = (trace: string) => `00-${trace}-b7ad6b7169203331-01`;

  it("logs the trace id of one valid header, and none for two (the spec's invalid case)", async () => {
    const { server, fixture: dir, logs } = await startTestServer();
    const res = await fetch(`${server.url}${INPUT}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": dir.keys.current,
        traceparent: header(TRACE),
      },
      body: JSON.stringify({ message: "hi" }),
    });
    expect(res.status).toBe(200);
    const other = "1bf7651916cd43dd8448eb211c80319c";
    const body = JSON.stringify({ message: "hi" });
    const twice = rawPost(dir.keys.current, body, {
      traceparent: header(TRACE),
      TraceParent: header(other),
      Connection: "close",
    });
    const { text } = await sendAllThenRead(server.port, twice);
    expect(parseResponse(text).status).toBe(200);
    const lines = logs.filter((r) => r.msg === "request");
    expect(lines.map((r) => r.trace_id)).toEqual([TRACE, undefined]);
    expect(JSON.stringify(lines)).not.toContain(other);
  });
});
