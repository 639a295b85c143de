// The Guardrails and Reports sections in a real headless chromium: a threshold changed in the
// browser is the one a running `guardrail serve` answers input-check with, a moderation category
// unticked there is one it stops flagging, an invalid regex is refused while typed and on save with
// the CLI's message, and a batch report's recommendation is applied in one click.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFixture } from "../config/helpers.js";
import { ensureBuilt, root } from "../helpers/built.js";
import {
  type Browser,
  launchBrowser,
  type Spawned,
  screenshot,
  spawnDashboard,
  spawnGuardrail,
} from "./browser.js";

let dir: string;
let browser: Browser;
let key = "";
const spawned: Spawned[] = [];
const cspViolations: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  dir = await copyFixture("valid");
  const dashboard = await spawnDashboard(dir);
  spawned.push(dashboard.process);
  browser = await launchBrowser();
  browser.page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
  });
  await browser.page.goto(dashboard.link);
  await browser.page.getByLabel("Label").fill("e2e");
  await browser.page.getByRole("button", { name: "Create key" }).click();
  key = (await browser.page.locator("#new-key").textContent()) ?? "";
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const child of spawned) await child.stop();
});

/** Opens a profile's page from the Guardrails section, as a person would. */
async function openProfile(name: string) {
  const { page } = browser;
  await page.getByRole("link", { name: "Guardrails" }).click();
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.locator("h1").textContent()).resolves.toBe(`Profile ${name}`);
}

describe("the Guardrails and Reports sections in a browser", () => {
  it("a threshold changed in the browser is the one a running serve answers input-check with", async () => {
    const { page } = browser;
    await openProfile("default");
    await page.locator("#g-llm").getByLabel("Enabled").check();
    await page.locator("#g-llm").getByLabel("Threshold").fill("0.77");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#save-status").textContent()).resolves.toContain("Saved.");
    await screenshot(page, "guardrails");

    const serve = spawnGuardrail(["serve", "--config", dir, "--port", "0"]);
    spawned.push(serve);
    const url = (await serve.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1];
    const threshold = async () => {
      const res = await fetch(`${url}/apikey/api/guardrail/v1/input-check`, {
        method: "POST",
        headers: { "X-API-Key": key, "Content-Type": "application/json" },
        body: JSON.stringify({ message: "What are your opening hours?" }),
      });
      return ((await res.json()) as { checks: { llm: { threshold: number | null } } }).checks.llm.threshold;
    };
    expect(await threshold()).toBe(0.77);
    // Changed again while serve runs: it reloads the file the dashboard wrote.
    await page.locator("#g-llm").getByLabel("Threshold").fill("0.66");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#save-status").textContent()).resolves.toContain("Saved.");
    await expect.poll(threshold, { timeout: 15_000, interval: 200 }).toBe(0.66);
    await serve.stop();
  });

  it("a moderation category unticked in the browser is one a running serve no longer flags", async () => {
    const { page } = browser;
    await openProfile("default");
    const moderation = page.locator("#g-content_moderation");
    await moderation.getByLabel("Enabled").check();
    await moderation.getByRole("checkbox", { name: /^HATE\b/ }).uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#save-status").textContent()).resolves.toContain("Saved.");
    const written = await readFile(join(dir, "profiles", "default.yaml"), "utf8");
    expect(written).toContain("    categories:\n      - VIOLENCE\n");
    expect(written).not.toMatch(/- HATE\n/);

    const serve = spawnGuardrail(["serve", "--config", dir, "--port", "0"]);
    spawned.push(serve);
    const url = (await serve.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1];
    const res = await fetch(`${url}/apikey/api/guardrail/v1/output-check`, {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify({
        message:
          "Those immigrants are filthy vermin and subhuman, they should all be driven out of our country.",
      }),
    });
    const body = (await res.json()) as { checks: { content_moderation: { result: string } } };
    expect(body.checks.content_moderation.result).toBe("SAFE");
    await serve.stop();
  });

  it("an invalid regex is shown while typed and refused on save with the CLI's message", async () => {
    const { page } = browser;
    const file = join(dir, "profiles", "default.yaml");
    const before = await readFile(file, "utf8");
    await openProfile("default");
    await page.locator("#g-regex").getByLabel("Enabled").check();
    const rule = page.getByRole("group", { name: "Rule 1" });
    await rule.getByLabel("Name").fill("ticket");
    await rule.getByLabel("Pattern").fill("(?<=a)b");
    const live = page.locator("#regex-patterns-0-live");
    await expect.poll(() => live.textContent()).toContain("lookbehind (?<=…) is not supported");
    await expect(rule.getByLabel("Pattern").getAttribute("aria-invalid")).resolves.toBe("true");
    await screenshot(page, "guardrails-invalid-regex");
    await page.getByRole("button", { name: "Save" }).click();
    // The loader's message, with the line and column of the text the save would have written.
    const errors = await page.locator("#form-errors").textContent();
    expect(errors).toContain(`${file}:`);
    expect(errors).toMatch(
      /default\.yaml:\d+:\d+: guardrails\.regex\.patterns\[0\]\.pattern: pattern "ticket": lookbehind \(\?<=…\) is not supported/,
    );
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("opens a batch HTML report and applies its recommended threshold in one click", async () => {
    const { page } = browser;
    const report = join(dir, "report.html");
    const batch = spawnGuardrail([
      "batch",
      join(root, "datasets/samples/injection-prompts.csv"),
      "--config",
      dir,
      "--profile",
      "default",
      "--target-fpr",
      "0.1",
      "--report",
      report,
      "--quiet",
    ]);
    const code = await new Promise<number | null>((done) =>
      batch.child.exitCode !== null ? done(batch.child.exitCode) : batch.child.once("exit", done),
    );
    expect(code, batch.stderr()).not.toBe(2);
    await page.getByRole("link", { name: "Reports" }).click();
    await page.getByLabel(/Batch report/).setInputFiles(report);
    await page.getByRole("button", { name: "Open" }).click();
    await expect(page.locator("#figures-llm").textContent()).resolves.toContain("Recommended");
    await screenshot(page, "reports");
    await page
      .locator("#apply-llm")
      .getByRole("button", { name: /^Apply / })
      .click();
    await expect(page.locator("#apply-status").textContent()).resolves.toContain("llm threshold");
    expect(cspViolations).toEqual([]);
  });
}, 180_000);
