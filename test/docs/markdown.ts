import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../helpers/built.js";

/** The pages the docs tests read: the README and every page under docs/, as paths from the root. */
export function docPages(): string[] {
  const docs = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md"));
  return ["README.md", ...docs.sort().map((name) => `docs/${name}`)];
}

export function readPage(page: string): string {
  return readFileSync(join(root, page), "utf8");
}

export interface Block {
  readonly page: string;
  readonly line: number;
  readonly lang: string;
  readonly body: string;
  /** The command of an `<!-- output of: … -->` comment just before the block, if any. */
  readonly outputOf?: string;
}

export interface Prose {
  readonly page: string;
  readonly line: number;
  readonly text: string;
}

/** Splits a page into fenced blocks and the lines outside them. */
export function parsePage(page: string, text = readPage(page)): { blocks: Block[]; prose: Prose[] } {
  const blocks: Block[] = [];
  const prose: Prose[] = [];
  const lines = text.split("\n");
  let open: { line: number; lang: string; fence: string; body: string[]; outputOf?: string } | undefined;
  let outputOf: string | undefined;
  lines.forEach((line, index) => {
    const fence = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (open) {
      if (fence && fence[1] === open.fence && !fence[2]) {
        blocks.push({
          page,
          line: open.line,
          lang: open.lang,
          body: open.body.join("\n"),
          outputOf: open.outputOf,
        });
        open = undefined;
      } else open.body.push(line);
      return;
    }
    if (fence?.[1]) {
      open = { line: index + 1, lang: fence[2] ?? "", fence: fence[1], body: [], outputOf };
      outputOf = undefined;
      return;
    }
    const marker = /^<!-- output of: (.*) -->$/.exec(line);
    if (marker) outputOf = marker[1];
    else if (line.trim() !== "") outputOf = undefined;
    prose.push({ page, line: index + 1, text: line });
  });
  return { blocks, prose };
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text: line } of parsePage("", text).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const base = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}
