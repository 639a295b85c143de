// axe-core (the standard accessibility engine) run inside a page. Injecting its script needs a
// browser context made with `launchBrowser({ bypassCSP: true })`: the dashboard's CSP
// (`script-src 'self'`) refuses it otherwise, as it should.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";

const source = readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The rules of WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
// WCAG 2.5.3 (Label in Name, level A): axe ships its rule as experimental, so off unless asked.
const RULES = JSON.stringify({ "label-content-name-mismatch": { enabled: true } });

/**
 * Each finding, one per element: the rule id, the element, what is wrong, the help URL. What axe
 * could not decide ("incomplete": a contrast over an image, an attribute it cannot judge) counts
 * too, marked "needs review": a person decides, then the page is changed until axe can tell.
 */
export function describeViolations(results: Pick<AxeResults, "violations" | "incomplete">): string[] {
  const lines = (results: AxeResults["violations"], prefix: string) =>
    results.flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${prefix}${v.id}: ${node.target.join(" ")} ${node.html}\n  ${node.failureSummary ?? v.help}\n  ${v.helpUrl}`,
      ),
    );
  return [...lines(results.violations, ""), ...lines(results.incomplete ?? [], "needs review: ")];
}

/** Runs axe on the page as it is now and returns what it found, described (empty: nothing). */
export async function audit(page: Page): Promise<string[]> {
  return describeViolations(await run(page));
}

/** axe's violations and undecided results for the page as it is now (not its passes). */
export async function run(page: Page): Promise<AxeResults> {
  if (!(await page.evaluate("typeof axe !== 'undefined'")))
    await page.addScriptTag({ content: await source });
  return (await page.evaluate(
    `axe.run(document, { runOnly: { type: "tag", values: ${JSON.stringify(WCAG_AA)} }, rules: ${RULES}, resultTypes: ["violations", "incomplete"] })`,
  )) as AxeResults;
}
