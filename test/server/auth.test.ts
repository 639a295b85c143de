import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_STRICT, type ConfigFixture, INPUT, makeApp, makeConfigDir, OUTPUT, post } from "./fixtures.js";

let fixture: ConfigFixture;
let noDefault: ConfigFixture;
beforeAll(async () => {
  [fixture, noDefault] = await Promise.all([makeConfigDir(), makeConfigDir({ withDefault: false })]);
});
afterAll(async () => {
  await Promise.all([fixture.cleanup(), noDefault.cleanup()]);
});

const ok = { message: "What is the capital of France?" };

describe("the spec's authentication table, on both endpoints", () => {
  const rows: [string, (f: ConfigFixture) => Record<string, string | undefined>, number, string | null][] = [
    ["no headers at all", () => ({}), 401, "Invalid API key"],
    [
      "a wrong key",
      (f) => ({ "X-API-Key": `${f.keys.current}x`, "X-App-ID": APP_STRICT }),
      401,
      "Invalid API key",
    ],
    ["an empty key", () => ({ "X-API-Key": "", "X-App-ID": APP_STRICT }), 401, "Invalid API key"],
    ["only X-App-ID (one header of two)", () => ({ "X-App-ID": APP_STRICT }), 401, "Invalid API key"],
    [
      "unknown App ID with a bad key",
      () => ({ "X-API-Key": "nope", "X-App-ID": "app_unknown_123" }),
      401,
      "Invalid API key",
    ],
    [
      "unknown App ID with a good key",
      (f) => ({ "X-API-Key": f.keys.current, "X-App-ID": "app_unknown_123" }),
      404,
      "App not found",
    ],
    [
      "an empty App ID with a good key",
      (f) => ({ "X-API-Key": f.keys.current, "X-App-ID": "" }),
      404,
      "App not found",
    ],
    [
      "known App ID with a good key",
      (f) => ({ "X-API-Key": f.keys.current, "X-App-ID": APP_STRICT }),
      200,
      null,
    ],
    ["only X-API-Key, a default profile exists", (f) => ({ "X-API-Key": f.keys.current }), 200, null],
    ["header names in any case", (f) => ({ "x-api-key": f.keys.current, "X-APP-ID": APP_STRICT }), 200, null],
  ];
  for (const path of [INPUT, OUTPUT]) {
    it.each(rows)(`${path.split("/").pop()}: %s → %i`, async (_name, headers, status, error) => {
      const { app } = await makeApp(fixture);
      const res = await app.request(...post(path, ok, headers(fixture)));
      expect(res.status).toBe(status);
      if (error !== null) expect(await res.json()).toEqual({ error });
    });
  }

  it("no App ID and no default profile → 404 Default security profile not configured", async () => {
    const { app } = await makeApp(noDefault);
    const res = await app.request(...post(INPUT, ok, { "X-API-Key": noDefault.keys.current }));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Default security profile not configured" });
    const withApp = await app.request(
      ...post(INPUT, ok, { "X-API-Key": noDefault.keys.current, "X-App-ID": APP_STRICT }),
    );
    expect(withApp.status).toBe(200);
  });
});

describe("key rotation", () => {
  it("accepts both active keys while a rotation is under way", async () => {
    const { app } = await makeApp(fixture);
    for (const key of [fixture.keys.current, fixture.keys.next]) {
      expect((await app.request(...post(INPUT, ok, { "X-API-Key": key }))).status).toBe(200);
    }
  });
  it("refuses a revoked key with 401", async () => {
    const { app } = await makeApp(fixture);
    const res = await app.request(...post(INPUT, ok, { "X-API-Key": fixture.keys.revoked }));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid API key" });
  });
});

describe("authentication comes before anything about the body", () => {
  const bad = { "X-API-Key": "wrong", "X-App-ID": "app_unknown_123" };
  it.each([
    ["malformed JSON", post(INPUT, "{not json", bad)],
    ["a non-object body", post(INPUT, "[1]", bad)],
    ["a missing message", post(INPUT, {}, bad)],
    [
      "a wrong content type",
      [INPUT, { method: "POST", headers: { ...bad, "content-type": "text/plain" }, body: "x" }],
    ],
    ["an oversized body", post(INPUT, { message: "x".repeat(2_000_000) }, bad)],
  ] as const)("answers 401 for %s without a valid key", async (_name, [path, init]) => {
    const { app } = await makeApp(fixture);
    const res = await app.request(path, init as RequestInit);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Invalid API key" });
  });
});
