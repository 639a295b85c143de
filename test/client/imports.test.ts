import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const src = join(import.meta.dirname, "../../src");

/** Every file `entry` loads, following relative imports; package imports are returned as names. */
function graph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, "utf8");
  for (const [, spec] of code.matchAll(/^(?:import|export)\s(?!type\s)[^;]*?from\s+"([^"]+)"/gms)) {
    if (!spec) continue;
    if (spec.startsWith(".")) graph(resolve(dirname(entry), spec.replace(/\.js$/, ".ts")), seen);
    else seen.add(spec);
  }
  return seen;
}

describe("guardrail/client", () => {
  it("loads only the client, the stream guard, the API files and where sentences end: no engine, models, server or packages", () => {
    const loaded = [...graph(join(src, "client/index.ts"))].map((f) =>
      f.startsWith("/") ? relative(src, f) : f,
    );
    expect(loaded.filter((f) => !/^(client|stream|api)\//.test(f) && f !== "text/sentences.ts")).toEqual([]);
  });
});
