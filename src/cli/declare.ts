import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import type { CliContext } from "./context.js";

/** What a command declaration gets: where to declare itself, and how to run its action. */
export type Parent = CommandUnknownOpts;

/** Runs one command's action against the context built from the parsed global flags. */
export type Execute = (run: (ctx: CliContext) => Promise<number>) => Promise<void>;

/** The options a declaration parses, typed from its `.option()` calls (numbers are numbers). */
export type OptionsOf<Declare extends (parent: Parent) => { opts(): object }> = ReturnType<
  ReturnType<Declare>["opts"]
>;

export const EXIT_CODES = `
Exit codes: 0 ran and nothing was flagged, 1 flagged, 2 usage, config or internal error.
Config directory: --config DIR, else $GUARDRAIL_CONFIG, else ./guardrail when it exists.`;
