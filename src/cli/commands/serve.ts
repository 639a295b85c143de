import type { Command, OptionValues } from "@commander-js/extra-typings";
import type { Execute, OptionsOf, Parent } from "../declare.js";
import { integer } from "../flag-parsers.js";

/** The flags of a command that serves HTTP over a config (`serve`, `proxy`): where, limits, metrics. */
export function serverFlags<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
  defaultPort: number,
) {
  return command
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option(
      "--port <port>",
      "port to listen on; 0 picks a free one",
      integer("--port", 0, 65535),
      defaultPort,
    )
    .option("--body-limit <bytes>", "largest request body accepted", integer("--body-limit", 1))
    .option(
      "--max-message-chars <n>",
      "longest message and prompt accepted",
      integer("--max-message-chars", 1),
    )
    .option(
      "--max-connections <n>",
      "open connections at most; past it new ones are refused (default 1024)",
      integer("--max-connections", 1),
    )
    .option(
      "--metrics-port <port>",
      "serve Prometheus metrics at /metrics on this port (unauthenticated; 0 picks a free one)",
      integer("--metrics-port", 0, 65535),
    )
    .option("--metrics-host <host>", "address the metrics port listens on (default 127.0.0.1)");
}

const declare = (parent: Parent) =>
  serverFlags(
    parent
      .command("serve")
      .description("serve input-check and output-check over HTTP (needs a config directory)"),
    8080,
  );

export type ServeOptions = OptionsOf<typeof declare>;

/** The server module (hono) is imported only when `serve` runs. */
export function declareServe(parent: Parent, execute: Execute): void {
  declare(parent).action((options) =>
    execute(async (ctx) => (await import("../actions/serve.js")).runServe(options, ctx)),
  );
}
