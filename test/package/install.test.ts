import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// A fresh `npm install` must leave the tree clean and print no warnings. Two things broke that:
// a lockfile missing optional platform packages (npm adds them as soon as the registry serves
// them, so the lockfile changed under CI), and install scripts npm 11 asks the project to decide on.

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
  hasInstallScript?: boolean;
}

const root = new URL("../../", import.meta.url);
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8")) as {
  packages: Record<string, LockEntry>;
};
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  allowScripts?: Record<string, boolean>;
};

/** The lockfile entry npm would resolve `name` to from the package at `from` (node_modules lookup). */
function resolve(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut < 0 ? "" : dir.slice(0, cut);
  }
}

describe("package-lock.json", () => {
  it("lists every optional dependency of every locked package, whatever the platform", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!resolve(path, name)) missing.push(`${path} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("declares in allowScripts whether each dependency's install script runs", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
    const declared = Object.keys(pkg.allowScripts ?? {}).map((key) => key.replace(/(.)@.*$/, "$1"));
    expect(withScripts.filter((name) => !declared.includes(name))).toEqual([]);
  });

  it("runs no dependency's install script: nothing is downloaded at install time", () => {
    expect(Object.values(pkg.allowScripts ?? {}).every((allowed) => allowed === false)).toBe(true);
  });
});
