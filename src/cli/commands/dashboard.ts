import type { Execute, OptionsOf, Parent } from "../declare.js";
import { integer } from "../flag-parsers.js";

const declare = (parent: Parent) =>
  parent
    .command("dashboard")
    .description(
      "serve the admin dashboard (keys, apps, Try it) over the config directory; opens with a one-time link printed here",
    )
    .option("--host <host>", "address to listen on (loopback only unless --allow-remote)", "127.0.0.1")
    .option("--port <port>", "port to listen on; 0 picks a free one", integer("--port", 0, 65535), 8081)
    .option(
      "--allow-remote",
      "allow a non-loopback --host and any Host header (put TLS and access control in front of it)",
    );

export type DashboardOptions = OptionsOf<typeof declare>;

/** The dashboard (hono, the engine) is imported only when `dashboard` runs. */
export function declareDashboard(parent: Parent, execute: Execute): void {
  declare(parent).action((options) =>
    execute(async (ctx) => (await import("../actions/dashboard.js")).runDashboard(options, ctx)),
  );
}
