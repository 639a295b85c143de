import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/engine.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { expectError, INPUT, makeApp, OUTPUT, post, readCheck, useConfigDir } from "./fixtures.js";

const setup = useConfigDir();

describe("request bodies", () => {
  it.each([
    ["malformed JSON", '{"message": ', "Malformed JSON body"],
    ["an empty body", "", "Malformed JSON body"],
    [
      "invalid UTF-8",
      new Uint8Array([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      "Malformed JSON body",
    ],
    ["an array", '["hi"]', "Request body must be a JSON object"],
    ["a string", '"hi"', "Request body must be a JSON object"],
    ["null", "null", "Request body must be a JSON object"],
    ["no message", "{}", "message is required and must be a string"],
    ["a null message", '{"message":null}', "message is required and must be a string"],
    ["a numeric message", '{"message":42}', "message is required and must be a string"],
  ])("400 for %s", async (_name, body, error) => {
    const { app } = await makeApp(setup.fixture);
    const res = await app.request(INPUT, {
      method: "POST",
      headers: { ...setup.auth, "content-type": "application/json" },
      body,
    });
    await expectError(res, 400, error);
  });
  it.each([42, true, ["a"], { a: 1 }])("output-check: 400 for prompt %j", async (prompt) => {
    const { app } = await makeApp(setup.fixture);
    await expectError(
      await app.request(...post(OUTPUT, { message: "hi", prompt }, setup.auth)),
      400,
      "prompt must be a string",
    );
  });
  it.each([
    ["absent", {}],
    ["null", { prompt: null }],
    ["a string", { prompt: "Tell me a story" }],
  ])("output-check: prompt %s is fine", async (_name, extra) => {
    const { app } = await makeApp(setup.fixture);
    expect(
      (await app.request(...post(OUTPUT, { message: "Once upon a time", ...extra }, setup.auth))).status,
    ).toBe(200);
  });
  it.each([42, true, ["a"], { a: 1 }])("output-check: 400 for context %j", async (context) => {
    const { app } = await makeApp(setup.fixture);
    await expectError(
      await app.request(...post(OUTPUT, { message: "hi", context }, setup.auth)),
      400,
      "context must be a string",
    );
  });
  it.each([
    ["null", { context: null }],
    ["empty", { context: "" }],
    ["a string", { context: "Once upon" }],
  ])("output-check: context %s is fine", async (_name, extra) => {
    const { app } = await makeApp(setup.fixture);
    expect((await app.request(...post(OUTPUT, { message: " a time", ...extra }, setup.auth))).status).toBe(
      200,
    );
  });
  it("input-check ignores fields it does not read, prompt and context included", async () => {
    const { app } = await makeApp(setup.fixture);
    const body = { message: "hi", prompt: 42, context: 42, extra: [] };
    expect((await app.request(...post(INPUT, body, setup.auth))).status).toBe(200);
  });
  it("an empty message is allowed and flags nothing", async () => {
    const { app } = await makeApp(setup.fixture);
    for (const path of [INPUT, OUTPUT]) {
      const res = await app.request(...post(path, { message: "" }, setup.auth));
      expect(res.status).toBe(200);
      expect((await readCheck(res)).injection_detected).toBe(false);
    }
  });
});

describe("routing and failures", () => {
  it.each(["/", "/apikey/api/guardrail/v2/input-check", `${INPUT}/`, "/apikey/api/guardrail/v1/check"])(
    "JSON 404 for %s",
    async (path) => {
      const { app } = await makeApp(setup.fixture);
      await expectError(await app.request(...post(path, { message: "hi" }, setup.auth)), 404, "Not found");
    },
  );
  it.each(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"])(
    "405 with Allow: POST for %s on the endpoints",
    async (method) => {
      const { app } = await makeApp(setup.fixture);
      for (const path of [INPUT, OUTPUT]) {
        const res = await app.request(path, { method, headers: setup.auth });
        expect(res.headers.get("allow")).toBe("POST");
        await expectError(res, 405, "Method not allowed");
      }
    },
  );
  it("500 without details when the engine itself throws, and the log says why", async () => {
    const engine = createEngine({ registry: builtinGuardrails });
    const broken = {
      ...engine,
      check: async () => Promise.reject(new TypeError("secret internals at /srv/x.ts:12")),
    };
    const { app, logs } = await makeApp(setup.fixture, { engine: broken });
    const res = await app.request(...post(INPUT, { message: "hi" }, setup.auth));
    await expectError(res, 500, "Internal server error");
    expect(logs.at(-1)).toMatchObject({
      level: "error",
      status: 500,
      error: "TypeError: secret internals at /srv/x.ts:12",
    });
  });
});
