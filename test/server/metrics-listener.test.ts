import { type AddressInfo, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { INPUT } from "./fixtures.js";
import { check, scrape, startMetered } from "./scrape.js";
import { open, startTestServer, stopServersAfterEach } from "./sockets.js";

stopServersAfterEach();

describe("where /metrics is served", () => {
  it("on a listener of its own, on loopback, and not on the API port", async () => {
    const { server, metricsUrl, logs } = await startMetered();
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(logs.find((r) => r.msg === "listening")).toMatchObject({ url: server.url, metrics: metricsUrl });
    expect(new URL(metricsUrl).port).not.toBe(String(server.port));
    expect((await scrape(metricsUrl)).value("guardrail_build_info")).toBe(1);

    const onApi = await fetch(`${server.url}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await onApi.json()).toEqual({ error: "Not found" });
    const origin = new URL(metricsUrl).origin;
    expect((await fetch(`${origin}/healthz`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(405);
  });

  it("or not at all: a metrics port in use fails the start, and the API port is closed again", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const apiPort = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    try {
      const metrics = { port: (taken.address() as AddressInfo).port };
      await expect(startTestServer({ port: apiPort, metrics })).rejects.toMatchObject({ code: "EADDRINUSE" });
      await expect(open(apiPort)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    } finally {
      taken.close();
    }
  });

  it("nowhere unless asked", async () => {
    const { server, logs } = await startTestServer();
    expect(server.metricsUrl).toBeUndefined();
    expect(logs.find((r) => r.msg === "listening")).not.toHaveProperty("metrics");
  });

  it("for its own server only: two servers in one process share no series", async () => {
    const a = await startMetered();
    const b = await startMetered();
    await check(a.server.url, INPUT, "hi", { "x-api-key": a.fixture.keys.current });
    expect((await scrape(a.metricsUrl)).value("guardrail_http_requests_total")).toBe(1);
    expect((await scrape(b.metricsUrl)).value("guardrail_http_requests_total")).toBe(0);
  });
});
