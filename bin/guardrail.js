#!/usr/bin/env node
// The installed entry point: plain JS so it needs no build of its own. It loads the compiled CLI,
// which imports each command's heavier dependencies only when that command runs.
import { existsSync } from "node:fs";

const entry = new URL("../dist/cli/main.js", import.meta.url);
if (existsSync(entry)) {
  const { main } = await import(entry.href);
  await main();
} else {
  process.stderr.write(
    "guardrail: the compiled CLI (dist/) is missing; run `npm install` (which builds) or `npm run build`\n",
  );
  process.exitCode = 2;
}
