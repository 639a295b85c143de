import type { Execute, OptionsOf, Parent } from "../declare.js";

const declare = (index: Parent) =>
  index
    .command("build")
    .description(
      "rebuild the bundled index of known attacks and each profile's own corpora (stale ones only)",
    )
    .option("--profile <name>", "only this profile's corpora (the bundled index is always checked)")
    .option("--force", "rebuild even indexes that are current");

export type IndexBuildOptions = OptionsOf<typeof declare>;

/** `index build`; the encoder and the vector guardrail load only when it runs. */
export function declareIndex(parent: Parent, execute: Execute): void {
  const index = parent.command("index").description("manage the vector guardrail's similarity indexes");
  declare(index).action((options) =>
    execute(async (ctx) => (await import("../actions/index-build.js")).runIndexBuild(options, ctx)),
  );
}
