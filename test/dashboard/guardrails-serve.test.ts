import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { guardrailsSection } from "../../src/server/dashboard/sections/guardrails.js";
import { startServer } from "../../src/server/start.js";
import { fakeEncoder } from "../helpers/fake-encoder.js";
import { APP_STRICT, INPUT, makeConfigDir } from "../server/fixtures.js";
import { formSha, post, sectionApp } from "./helpers/app.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("a threshold saved in the dashboard", () => {
  it("is the one a running, watching server answers input-check with", async () => {
    const fixture = await makeConfigDir();
    cleanups.push(() => fixture.cleanup());
    await fixture.writeProfile(
      "strict.yaml",
      "name: strict\nguardrails:\n  llm:\n    enabled: true\n    threshold: 0.5   # tuned by hand\n",
    );
    const server = await startServer({
      configDir: fixture.dir,
      port: 0,
      watch: true,
      log: () => {},
      encoder: fakeEncoder(),
      encoderWorkers: 0,
      textLane: false,
    });
    cleanups.push(() => server.close());
    const threshold = async () => {
      const res = await fetch(`${server.url}${INPUT}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": fixture.keys.current,
          "x-app-id": APP_STRICT,
        },
        body: JSON.stringify({ message: "What are your opening hours?" }),
      });
      const body = (await res.json()) as { checks: { llm: { threshold: number | null } } };
      return body.checks.llm.threshold;
    };
    expect(await threshold()).toBe(0.5);

    const app = sectionApp(guardrailsSection, fixture.dir);
    const page = await (await app.request("/guardrails/strict")).text();
    const res = await post(app, "/guardrails/strict", [
      ["sha256", formSha(page)],
      ["llm.enabled", "on"],
      ["llm.threshold", "0.91"],
    ]);
    expect(res.status).toBe(303);
    await expect.poll(threshold, { timeout: 10_000, interval: 100 }).toBe(0.91);
    expect(await readFile(join(fixture.dir, "profiles", "strict.yaml"), "utf8")).toBe(
      "name: strict\nguardrails:\n  llm:\n    enabled: true\n    threshold: 0.91   # tuned by hand\n",
    );
  });
});
