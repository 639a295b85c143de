import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The package ships what the product reads at run time and nothing else: training data, experiment
// data and their generators stay in the repository.

const root = join(import.meta.dirname, "../..");
const SHIPPED = new Set(["bin", "dist", "profiles", "models", "README.md", "package.json", "LICENSE"]);
// Of docs/, only what the server reads: the OpenAPI document it serves at /openapi.json.
const SHIPPED_FILES = new Set(["docs/openapi.yaml"]);

function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return (pack?.files ?? []).map((f) => f.path);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("the npm package", () => {
  it("holds only the runtime's folders, with the vector guardrail's corpus beside its index", () => {
    const files = packedFiles();
    expect(files.filter((f) => !SHIPPED.has(f.split("/")[0] ?? "") && !SHIPPED_FILES.has(f))).toEqual([]);
    expect(files).toContain("docs/openapi.yaml");
    expect(files).toContain("models/vector/known-injections.jsonl");
    expect(files).toContain("models/vector/index.bin");
  });

  it("has runtime code that reads nothing from datasets/ or training/ (they do not ship)", () => {
    const offenders = sourceFiles(join(root, "src")).filter((file) =>
      /["'/](datasets|training)["'/]/.test(readFileSync(file, "utf8")),
    );
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });
});
