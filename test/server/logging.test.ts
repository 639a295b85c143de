import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maskAppId } from "../../src/config/apps.js";
import { APP_STRICT, type ConfigFixture, INPUT, makeApp, makeConfigDir, OUTPUT, post } from "./fixtures.js";

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
