import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { APP_QUIET, APP_STRICT, INPUT, OUTPUT } from "./fixtures.js";
import { check, scrape, startMetered } from "./scrape.js";
import { nextResponse, open, parseResponse, received, sleep, stopServersAfterEach } from "./sockets.js";

stopServersAfterEach();

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

const oneOf =
  (...values: string[]) =>
  (value: string) =>
    values.includes(value);

describe("what /metrics counts", () => {
  it("requests by endpoint, status class and profile, their latency, and the limits they hit", async () => {
    const { server, fixture, metricsUrl } = await startMetered({
      limits: { bodyBytes: 2_000, messageChars: 50 },
    });
    const strict = { "x-api-key": fixture.keys.current, "x-app-id": APP_STRICT };
    const statuses = [
      await check(server.url, INPUT, "a purple elephant", strict),
      await check(server.url, OUTPUT, "hello", { "x-api-key": fixture.keys.current }),
      await check(server.url, INPUT, "hi", { "x-api-key": fixture.keys.revoked, "x-app-id": APP_STRICT }),
      await check(server.url, INPUT, "hi", {
        "x-api-key": fixture.keys.current,
        "x-app-id": "app_unknown_1",
      }),
      await check(server.url, INPUT, "x".repeat(3_000), strict),
      await check(server.url, INPUT, "x".repeat(60), strict),
      (await fetch(`${server.url}/healthz`)).status,
      (await fetch(`${server.url}/no/such/path`)).status,
    ];
    expect(statuses).toEqual([200, 200, 401, 404, 413, 413, 200, 404]);

    const m = await scrape(metricsUrl);
    const requests = (endpoint: string, status_class: string, profile: string) =>
      m.value("guardrail_http_requests_total", { endpoint, status_class, profile });
    expect(requests("input-check", "2xx", "strict")).toBe(1);
    expect(requests("output-check", "2xx", "main")).toBe(1);
    // 401 and 404 never authenticated; the 413s did, before the body was read.
    expect(requests("input-check", "4xx", "(none)")).toBe(2);
    expect(requests("input-check", "4xx", "strict")).toBe(2);
    expect(requests("healthz", "2xx", "(none)")).toBe(1);
    expect(requests("other", "4xx", "(none)")).toBe(1);
    // Scrapes are not requests of the API.
    expect(m.value("guardrail_http_requests_total")).toBe(8);
    expect(m.value("guardrail_http_request_duration_seconds_count", { endpoint: "input-check" })).toBe(5);

    expect(m.value("guardrail_rejected_requests_total", { reason: "body_too_large" })).toBe(1);
    expect(m.value("guardrail_rejected_requests_total", { reason: "message_too_long" })).toBe(1);

    const flags = { guardrail: "keyword", mode: "input", profile: "strict" };
    expect(m.value("guardrail_detector_flags_total", flags)).toBe(1);
    expect(m.value("guardrail_detector_flags_total")).toBe(1);
    // Only the two checks that ran timed their guardrails: strict's keyword; main's three on output.
    expect(
      m.value("guardrail_detector_duration_seconds_count", { guardrail: "keyword", mode: "input" }),
    ).toBe(1);
    for (const guardrail of ["keyword", "regex", "pii"])
      expect(m.value("guardrail_detector_duration_seconds_count", { guardrail, mode: "output" })).toBe(1);
    expect(m.value("guardrail_detector_errors_total")).toBe(0);
  });

  it("with labels that name no App ID, key, path or header: only fixed words and profile names", async () => {
    const { server, fixture, metricsUrl } = await startMetered();
    const canaries = [
      ...Object.values(fixture.keys),
      APP_STRICT,
      APP_QUIET,
      "app_canary_81f2",
      "canary-path-4c7e",
      "canary-header-0b9d",
    ];
    for (const key of Object.values(fixture.keys)) {
      for (const app of [APP_STRICT, APP_QUIET, "app_canary_81f2"]) {
        await check(server.url, INPUT, "hello", {
          "x-api-key": key,
          "x-app-id": app,
          "x-canary": canaries[6] as string,
        });
      }
    }
    await fetch(`${server.url}/canary-path-4c7e/${APP_STRICT}?key=${fixture.keys.current}`);

    const m = await scrape(metricsUrl);
    for (const canary of canaries) expect(m.text).not.toContain(canary);
    // Every label any series of ours has, with every value it may take.
    const allowed: Record<string, (value: string) => boolean> = {
      endpoint: oneOf("input-check", "output-check", "healthz", "other"),
      status_class: oneOf("2xx", "4xx", "5xx"),
      profile: oneOf("main", "strict", "off", "(none)"),
      mode: oneOf("input", "output"),
      guardrail: oneOf(...Object.keys(builtinGuardrails)),
      reason: oneOf("body_too_large", "message_too_long", "headers_too_large", "timeout", "connection_limit"),
      result: oneOf("ok", "failed"),
      le: (value) => value === "+Inf" || Number.isFinite(Number(value)),
      version: oneOf(version),
      encoder: oneOf("none"),
    };
    const ours = m.families.filter((f) => f.name.startsWith("guardrail_"));
    expect(ours.length).toBeGreaterThan(10);
    for (const family of ours) {
      for (const sample of family.metrics) {
        for (const [label, value] of Object.entries(sample.labels ?? {})) {
          expect(allowed[label]?.(value), `${family.name}{${label}="${value}"}`).toBe(true);
        }
      }
    }
    expect(m.value("guardrail_http_requests_total", { profile: "strict" })).toBe(2);
    expect(m.value("guardrail_http_requests_total", { profile: "off" })).toBe(2);
  });

  it("config reloads, ok and failed, and when the serving config was loaded", async () => {
    const { server, fixture, metricsUrl } = await startMetered();
    const before = await scrape(metricsUrl);
    expect(before.value("guardrail_config_reloads_total", { result: "ok" })).toBe(0);
    expect(before.value("guardrail_config_reloads_total", { result: "failed" })).toBe(0);
    const loadedAt = before.value("guardrail_config_loaded_timestamp_seconds");
    expect(loadedAt).toBeGreaterThan(Date.now() / 1000 - 60);

    await fixture.writeProfile("strict.yaml", "name: strict\nguardrails: { keyword: { enabled: maybe } }\n");
    expect(await server.reload()).toBe(false);
    const failed = await scrape(metricsUrl);
    expect(failed.value("guardrail_config_reloads_total", { result: "failed" })).toBe(1);
    expect(failed.value("guardrail_config_loaded_timestamp_seconds")).toBe(loadedAt);

    await sleep(20);
    await fixture.writeProfile("strict.yaml", "name: strict\nguardrails: { vector: { enabled: true } }\n");
    expect(await server.reload()).toBe(true);
    const ok = await scrape(metricsUrl);
    expect(ok.value("guardrail_config_reloads_total", { result: "ok" })).toBe(1);
    expect(ok.value("guardrail_config_loaded_timestamp_seconds")).toBeGreaterThan(loadedAt);
    expect(ok.value("guardrail_config_age_seconds")).toBeLessThan(30);
    // The reload made a profile need the encoder: build info now names it.
    const info = ok.families.find((f) => f.name === "guardrail_build_info")?.metrics;
    expect(info).toEqual([
      { labels: { version, encoder: expect.stringMatching(/^use-lite-int8:/) }, value: "1" },
    ]);
  }, 60_000);

  it("the encoder pool, the text lane, build info and the process's own metrics", async () => {
    const { metricsUrl } = await startMetered();
    const m = await scrape(metricsUrl);
    expect(m.value("guardrail_encoder_workers")).toBe(1);
    expect(m.value("guardrail_encoder_busy_workers")).toBe(0);
    expect(m.value("guardrail_encoder_queue_depth")).toBe(0);
    expect(m.value("guardrail_text_lane_checks_in_flight")).toBe(0);
    expect(m.families.find((f) => f.name === "guardrail_build_info")?.metrics).toEqual([
      { labels: { version, encoder: "none" }, value: "1" },
    ]);
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(m.families.map((f) => f.name)).toContain(name);
  });

  it("exactly the metrics the table in docs/operations.md lists, with the types it gives", async () => {
    const { metricsUrl } = await startMetered();
    const { text } = await scrape(metricsUrl);
    const served = [...text.matchAll(/^# TYPE (guardrail_\S+) (\S+)$/gm)].map(
      ([, name, type]) => `${name} ${type}`,
    );
    const readme = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
    const documented = [...readme.matchAll(/^\| `(guardrail_\w+)` \| (counter|gauge|histogram)/gm)].map(
      ([, name, type]) => `${name} ${type}`,
    );
    expect(documented).toHaveLength(14);
    expect(served.sort()).toEqual(documented.sort());
  });

  it("what Node's parser, its deadlines and the connection cap refuse before the app runs", async () => {
    const { server, metricsUrl } = await startMetered({
      // A deadline long enough that the connections held below send their request well within it.
      connections: { headersMs: 1_000, checkEveryMs: 50, maxConnections: 2 },
    });
    const big = await open(server.port);
    const answer = received(big);
    big.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(parseResponse((await answer).text).status).toBe(431);
    const silent = await open(server.port);
    expect(parseResponse((await received(silent)).text).status).toBe(408);

    const held = await Promise.all([1, 2].map(() => open(server.port)));
    for (const socket of held) {
      const reply = nextResponse(socket);
      socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      expect((await reply).status).toBe(200);
    }
    const refused = await open(server.port);
    expect((await received(refused)).text).toBe("");
    for (const socket of held) socket.destroy();

    const m = await scrape(metricsUrl);
    expect(m.value("guardrail_rejected_requests_total", { reason: "headers_too_large" })).toBe(1);
    expect(m.value("guardrail_rejected_requests_total", { reason: "timeout" })).toBe(1);
    expect(m.value("guardrail_rejected_requests_total", { reason: "connection_limit" })).toBe(1);
  });
});
