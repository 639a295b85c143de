import { readFileSync } from "node:fs";

/** guardrail's version from package.json: two levels up from both src/cli and dist/cli. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  return String(pkg.version);
}
