import { existsSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../helpers/built.js";
import { anchors, docPages, parsePage, readPage } from "./markdown.js";

/** Every relative link of one page, outside code, as [line, target]. */
function links(page: string): [number, string][] {
  const out: [number, string][] = [];
  for (const { line, text } of parsePage(page).prose) {
    const bare = text.replace(/`[^`]*`/g, "");
    for (const [, target] of bare.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      if (target && !/^[a-z][a-z+.-]*:/i.test(target)) out.push([line, target]);
  }
  return out;
}

describe("the docs' relative links", () => {
  it.each(docPages())("%s: every link resolves, anchors included", (page) => {
    const broken: string[] = [];
    for (const [line, target] of links(page)) {
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
      const where = `${page}:${line}: ${target}`;
      if (!file.startsWith(root) || !existsSync(file)) broken.push(`${where} (no ${relative(root, file)})`);
      else if (anchor !== undefined && file.endsWith(".md") && statSync(file).isFile()) {
        if (!anchors(readPage(relative(root, file))).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("finds the links it checks (the README links into docs/)", () => {
    expect(links("README.md").filter(([, t]) => t.startsWith("docs/")).length).toBeGreaterThan(10);
  });

  it("slugs headings as GitHub does", () => {
    const slugs = anchors(
      "# Evaluating a data set: `guardrail batch`\n## Key rotation and a lost key\n## A\n## A\n",
    );
    expect([...slugs]).toEqual([
      "evaluating-a-data-set-guardrail-batch",
      "key-rotation-and-a-lost-key",
      "a",
      "a-1",
    ]);
  });
});
