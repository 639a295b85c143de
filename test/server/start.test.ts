import { type IncomingMessage, request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/start.js";
import type { LogRecord } from "../../src/server/types.js";
import { documentedFetch, expectDocumented } from "../helpers/openapi/conformance.js";
import { APP_STRICT, type ConfigFixture, INPUT, makeConfigDir, readCheck } from "./fixtures.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(fixture: ConfigFixture, options: Partial<StartOptions> = {}) {
  const logs: LogRecord[] = [];
  const server = await startServer({
    configDir: fixture.dir,
    port: 0,
    watch: false,
    log: (r) => logs.push(r),
    ...options,
  });
  cleanups.push(() => server.close());
  return { server, logs };
}

async function fixtureDir(options?: Parameters<typeof makeConfigDir>[0]) {
  const fixture = await makeConfigDir(options);
  cleanups.push(() => fixture.cleanup());
  return fixture;
}

async function check(server: RunningServer, key: string, message: string) {
  const res = await documentedFetch(`${server.url}${INPUT}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key, "x-app-id": APP_STRICT },
    body: JSON.stringify({ message }),
  });
  return { status: res.status, body: await readCheck(res) };
}

/** A node:http response to POST input-check, read whole and checked against docs/openapi.yaml. */
async function documentedAnswer(res: IncomingMessage) {
  let body = "";
  for await (const chunk of res.setEncoding("utf8")) body += chunk;
  const headers = Object.fromEntries(
    Object.entries(res.headers).map(([name, value]) => [name, String(value)]),
  );
  const status = res.statusCode ?? 0;
  await expectDocumented({ method: "POST", path: INPUT, status, headers, body });
  return { status, body };
}

const strict = (keyword: string) =>
  `name: strict\nguardrails:\n  keyword: { enabled: true, keywords: [${keyword}] }\n`;

describe("startServer", () => {
  it("serves on the port it picked, over loopback by default", async () => {
    const fixture = await fixtureDir();
    const { server, logs } = await start(fixture);
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect((await check(server, fixture.keys.current, "purple elephant")).body.injection_detected).toBe(true);
    expect(logs.find((r) => r.msg === "listening")).toMatchObject({ url: server.url });
  });

  it("throws a ConfigError to the caller when the config is broken at start", async () => {
    const fixture = await fixtureDir();
    await fixture.writeProfile("strict.yaml", "name: strict\nguardrails: { keyword: { enabled: true } }\n");
    await expect(startServer({ configDir: fixture.dir, port: 0, log: () => {} })).rejects.toBeInstanceOf(
      ConfigError,
    );
  });

  it("warns that every request gets 401 when there are no keys", async () => {
    const { logs } = await start(await fixtureDir({ withKeys: false }));
    expect(logs.find((r) => r.level === "warn")?.msg).toMatch(/no active API keys.*401/);
  });
});

describe("reload", () => {
  it("keeps serving the last good config when the new one is broken, then swaps in a good one", async () => {
    const fixture = await fixtureDir();
    const { server, logs } = await start(fixture);
    await fixture.writeProfile("strict.yaml", "name: strict\nguardrails: { keyword: { enabled: maybe } }\n");
    expect(await server.reload()).toBe(false);
    const failed = logs.find((r) => r.msg.startsWith("config reload failed"));
    expect(failed).toMatchObject({
      level: "error",
      problems: expect.arrayContaining([expect.stringContaining("strict.yaml")]),
    });
    expect((await check(server, fixture.keys.current, "purple elephant")).body.injection_detected).toBe(true);

    await fixture.writeProfile("strict.yaml", strict("green giraffe"));
    expect(await server.reload()).toBe(true);
    expect(logs.at(-1)).toMatchObject({ level: "info", msg: "config reloaded", profiles: 3, apps: 2 });
    expect((await check(server, fixture.keys.current, "purple elephant")).body.injection_detected).toBe(
      false,
    );
    expect((await check(server, fixture.keys.current, "green giraffe")).body.injection_detected).toBe(true);
  });

  it("follows changes to the config directory when watching", async () => {
    const fixture = await fixtureDir();
    const { server, logs } = await start(fixture, { watch: true });
    await fixture.writeProfile("strict.yaml", strict("green giraffe"));
    await expect.poll(() => logs.some((r) => r.msg === "config reloaded"), { timeout: 5000 }).toBe(true);
    expect((await check(server, fixture.keys.current, "green giraffe")).body.injection_detected).toBe(true);
  });
});

describe("reloading a 100,000-keyword profile", () => {
  it("keeps the event loop answering while the YAML parses and the automaton builds", async () => {
    const fixture = await fixtureDir();
    const { server } = await start(fixture);
    const keywords = Array.from({ length: 100_000 }, (_, i) => `forbidden phrase ${i.toString(36)}`);
    await fixture.writeProfile("strict.yaml", strict(keywords.join(", ")));
    // Before: 3.3 s of parsing and building in one piece; now the parse runs on another thread
    // and the build yields every ~20 ms. The bound leaves room for a busy CI machine.
    let longest = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    try {
      expect(await server.reload()).toBe(true);
    } finally {
      clearInterval(probe);
    }
    expect(longest).toBeLessThan(400);
    expect(
      (await check(server, fixture.keys.current, "the forbidden phrase 2bi is here")).body.injection_detected,
    ).toBe(true);
  }, 30_000);
});

describe("close", () => {
  it("finishes in-flight requests, then stops", async () => {
    const fixture = await fixtureDir();
    const { server } = await start(fixture);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.url}${INPUT}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": fixture.keys.current },
      });
      req.on("response", (res) => documentedAnswer(res).then(resolve, reject));
      req.on("error", reject);
      req.write('{"message": "half of a ');
      setTimeout(() => req.end('message"}'), 300);
    });
    await new Promise((r) => setTimeout(r, 100));
    const closed = server.close();
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(body).injection_detected).toBe(false);
    await closed;
    await expect(documentedFetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it("answers 413 over a real socket for a chunked body that grows too large", async () => {
    const fixture = await fixtureDir();
    const { server } = await start(fixture, { limits: { bodyBytes: 10_000 } });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}${INPUT}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": fixture.keys.current },
      });
      req.on("response", (res) => documentedAnswer(res).then((answer) => resolve(answer.status), reject));
      req.on("error", reject);
      req.write('{"message": "');
      for (let i = 0; i < 20; i++) req.write("x".repeat(1000));
      req.end('"}');
    });
    expect(status).toBe(413);
  });
});
