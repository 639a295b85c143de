import type { Command } from "@commander-js/extra-typings";
import { declareApps } from "./commands/apps.js";
import { declareBatch } from "./commands/batch.js";
import { declareCheck } from "./commands/check.js";
import { declareDashboard } from "./commands/dashboard.js";
import { declareIndex } from "./commands/index-build.js";
import { declareInit } from "./commands/init.js";
import { declareKeys } from "./commands/keys.js";
import { declareProfiles } from "./commands/profiles.js";
import { declareProxy } from "./commands/proxy.js";
import { declareServe } from "./commands/serve.js";
import { EXIT_CODES, type Execute } from "./declare.js";

/**
 * Declares the global flags and every command on `program`, which comes configured (output, exit
 * override, version). Each command module is light: it imports its action only when it runs, so
 * `check` never loads the server and `batch` loads ink only on a terminal.
 */
export function declareCommands(program: Command, execute: Execute) {
  const withGlobals = program
    .option("--config <dir>", "config directory (profiles/, apps.yaml, keys.yaml)")
    .option("--json", "print machine-readable JSON on stdout")
    .addHelpText("after", EXIT_CODES);
  declareCheck(withGlobals, execute);
  declareBatch(withGlobals, execute);
  declareServe(withGlobals, execute);
  declareProxy(withGlobals, execute);
  declareDashboard(withGlobals, execute);
  declareKeys(withGlobals, execute);
  declareApps(withGlobals, execute);
  declareProfiles(withGlobals, execute);
  declareInit(withGlobals, execute);
  declareIndex(withGlobals, execute);
  return withGlobals;
}
