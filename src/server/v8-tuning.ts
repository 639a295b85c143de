import { setFlagsFromString } from "node:v8";

/**
 * V8 flags a long-running server process sets for itself (`serve`, `proxy`; never the library: an
 * app that embeds `createGuardrail` keeps its own heap policy).
 *
 * `--no-memory-reducer`: whenever the process falls idle, V8's memory reducer starts garbage
 * collections to give memory back, and the request that ends the pause pays for them. Measured
 * with `bench/stream.ts` (its `final` mode: one output-check after ~10.6 s of waiting), that check
 * cost 143–148 ms of server CPU with the reducer and 60–68 ms without, about what the same check
 * costs back to back; the price is peak RSS 4–11 MiB higher under load (`bench:full`, figures in
 * bench/README.md). A process started with `--memory-reducer` or `--no-memory-reducer` (command
 * line or NODE_OPTIONS) keeps its own choice.
 */
export function serverV8Flags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = [...execArgv, ...(nodeOptions ?? "").split(/\s+/)];
  return given.some((flag) => /^--(no-)?memory[-_]reducer$/.test(flag)) ? [] : ["--no-memory-reducer"];
}

/** Sets `serverV8Flags` for this process. */
export function tuneV8ForServing(): void {
  for (const flag of serverV8Flags(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(flag);
}
