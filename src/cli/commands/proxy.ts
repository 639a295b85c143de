import type { Execute, OptionsOf, Parent } from "../declare.js";
import { integer, streamModeFlag } from "../flag-parsers.js";
import { serverFlags } from "./serve.js";

const declare = (parent: Parent) =>
  serverFlags(
    parent
      .command("proxy")
      .description(
        "serve the OpenAI Chat Completions API in front of an upstream, checking every request and answer (needs a config directory)",
      )
      .requiredOption(
        "--upstream <url>",
        "the upstream's base URL with its version path, e.g. https://api.openai.com/v1",
      )
      .option(
        "--upstream-timeout <ms>",
        "longest wait for the upstream's answer headers, the rest of a JSON answer, or a stream's next bytes (default 300000)",
        integer("--upstream-timeout", 1),
      )
      .option(
        "--stream-mode <mode>",
        "how streamed answers are checked: chunk (every chunk before it is sent), sentence (whole sentences as checks pass them; the default) or final (sent at once, checked once at the end)",
        streamModeFlag,
      ),
    8088,
  );

export type ProxyCliOptions = OptionsOf<typeof declare>;

/** The server modules are imported only when `proxy` runs. */
export function declareProxy(parent: Parent, execute: Execute): void {
  declare(parent).action((options) =>
    execute(async (ctx) => (await import("../actions/proxy.js")).runProxy(options, ctx)),
  );
}
