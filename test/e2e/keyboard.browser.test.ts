// The dashboard by keyboard alone, with its CSP on: Tab reaches an App ID's Reveal button and
// Enter reveals it, Tab reaches a profile's Save and Enter saves, and every element that takes
// focus on the way looks different when it has it (the `:focus-visible` ring).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFixture } from "../config/helpers.js";
import { ensureBuilt } from "../helpers/built.js";
import { type Browser, launchBrowser, type Spawned, spawnDashboard } from "./browser.js";

let dir: string;
let browser: Browser;
let dashboard: Spawned;
let base: string;
const cspViolations: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  dir = await copyFixture("valid");
  let link: string;
  ({ process: dashboard, link, base } = await spawnDashboard(dir));
  browser = await launchBrowser();
  browser.page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
  });
  await browser.page.goto(link);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await dashboard?.stop();
});

// The page's side, written as strings: the tests are type-checked without the DOM's types.
const MARK_FOCUSABLE = `(() => {
  const ring = (el) => { const s = getComputedStyle(el); return s.outlineStyle + " " + s.outlineWidth + " " + s.outlineColor + " | " + s.boxShadow; };
  const all = [...document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, [tabindex]")];
  all.forEach((el, i) => { el.setAttribute("data-kb", String(i)); el.setAttribute("data-kb-ring", ring(el)); });
  document.activeElement?.blur?.();
})()`;
const ACTIVE = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const s = getComputedStyle(el);
  return {
    name: el.getAttribute("aria-label") || el.id || (el.textContent || "").trim().slice(0, 40),
    tag: el.tagName.toLowerCase(),
    before: el.getAttribute("data-kb-ring"),
    now: s.outlineStyle + " " + s.outlineWidth + " " + s.outlineColor + " | " + s.boxShadow,
    focusVisible: el.matches(":focus-visible"),
  };
})()`;
interface Active {
  name: string;
  tag: string;
  before: string | null;
  now: string;
  focusVisible: boolean;
}

/**
 * Presses Tab from the top of the page until `wanted` has focus, checking that each element met on
 * the way shows its focus (`:focus-visible` matches and its outline or box-shadow changed).
 */
async function tabTo(wanted: (active: Active) => boolean, limit = 200): Promise<Active[]> {
  const { page } = browser;
  await page.evaluate(MARK_FOCUSABLE);
  const met: Active[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const active = (await page.evaluate(ACTIVE)) as Active | null;
    if (!active) continue;
    met.push(active);
    expect(active.focusVisible, `${active.tag} "${active.name}" matches :focus-visible`).toBe(true);
    expect(active.now, `${active.tag} "${active.name}" shows its focus`).not.toBe(active.before);
    if (wanted(active)) return met;
  }
  throw new Error(`not reached in ${limit} Tabs; met: ${met.map((a) => a.name).join(", ")}`);
}

describe("the dashboard by keyboard alone", () => {
  it("Apps: Tab reaches an App ID's Reveal, Enter reveals the ID and Enter again masks it", async () => {
    const { page } = browser;
    await page.goto(`${base}/apps`);
    const met = await tabTo((a) => a.name === "Reveal App ID of web");
    // The skip link comes first, then the nav.
    expect(met[0]?.name).toBe("Skip to content");
    const code = page.locator('code[data-full="app_web00001"]');
    expect(await code.textContent()).not.toBe("app_web00001");
    await page.keyboard.press("Enter");
    await expect(code.textContent()).resolves.toBe("app_web00001");
    const still = (await page.evaluate(ACTIVE)) as Active;
    expect(still.name).toBe("Hide App ID of web");
    await page.keyboard.press("Enter");
    await expect(code.textContent()).resolves.not.toBe("app_web00001");
  });

  it("the skip link moves focus past the nav to the page's content", async () => {
    const { page } = browser;
    await page.goto(`${base}/apps`);
    await tabTo((a) => a.name === "Skip to content");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    const active = (await page.evaluate(ACTIVE)) as Active;
    // The first control inside <main>, not a nav link.
    expect(await page.evaluate("document.activeElement.closest('main') !== null")).toBe(true);
    expect(active.name).not.toBe("Org Settings");
  });

  it("Guardrails: Tab reaches a threshold and Save; a refused value, then Enter on Save saves", async () => {
    const { page } = browser;
    await page.goto(`${base}/guardrails`);
    await tabTo((a) => a.tag === "a" && a.name === "default");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/guardrails\/default$/);
    await tabTo((a) => a.name === "llm-enabled");
    if (!(await page.evaluate("document.activeElement.checked"))) await page.keyboard.press("Space");
    expect(await page.evaluate("document.activeElement.checked")).toBe(true);
    await tabTo((a) => a.name === "llm-threshold");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("2");
    // Enter in a text field submits its form; the refusal marks the field aria-invalid, and its
    // red outline must not hide the focus ring (tabTo checks the ring changes).
    await page.keyboard.press("Enter");
    await page.locator("#llm-threshold-error").waitFor();
    await tabTo((a) => a.name === "llm-threshold");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("0.61");
    await tabTo((a) => a.name === "save");
    await page.keyboard.press("Enter");
    await expect(page.locator("#save-status").textContent()).resolves.toContain("Saved.");
    expect(await readFile(join(dir, "profiles", "default.yaml"), "utf8")).toMatch(/threshold: 0\.61/);
    expect(cspViolations).toEqual([]);
  });
}, 180_000);
