import type { Execute, OptionsOf, Parent } from "../declare.js";

const declare = (parent: Parent) =>
  parent
    .command("init")
    .description("create a config directory: the default profile and an empty apps.yaml")
    .argument("[dir]", "where to create it (default: --config, $GUARDRAIL_CONFIG, else ./guardrail)")
    .option("--force", "rewrite profiles/default.yaml and apps.yaml of an existing config (keys are kept)");

/** `init`'s flags, and the directory to create (absent: where the config would be looked for). */
export type InitOptions = OptionsOf<typeof declare> & { readonly dir?: string | undefined };

export function declareInit(parent: Parent, execute: Execute): void {
  declare(parent).action((dir, options) =>
    execute(async (ctx) => (await import("../actions/init.js")).runInit({ ...options, dir }, ctx)),
  );
}
