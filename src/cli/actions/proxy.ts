import { UsageError } from "../../errors.js";
import type { ProxyOptions } from "../../server/proxy/start.js";
import type { ProxyCliOptions } from "../commands/proxy.js";
import { type CliContext, requireConfigDir } from "../context.js";
import { processDeps, type ServeDeps, serveUntilStopped } from "./serve.js";

/** The upstream URL as the proxy calls it: http or https, and no query or fragment to append to. */
function upstreamUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--upstream must be a URL such as https://api.openai.com/v1, not "${text}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError("--upstream must be an http or https URL");
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "")
    throw new UsageError(
      "--upstream takes no query, fragment or credentials: the client's Authorization header is sent",
    );
  return url.href.replace(/\/+$/, "");
}

/** `guardrail proxy`: serve's lifecycle around the proxy's app (src/server/proxy). */
export async function runProxy(options: ProxyCliOptions, ctx: CliContext, deps?: ServeDeps): Promise<number> {
  const configDir = requireConfigDir(ctx, "proxy");
  const upstream = upstreamUrl(options.upstream);
  const { startProxy } = await import("../../server/proxy/start.js");
  const base = deps ?? (await processDeps());
  const start = deps ? (o: ProxyOptions) => deps.start(o) : startProxy;
  const timeout = options.upstreamTimeout === undefined ? {} : { upstreamTimeoutMs: options.upstreamTimeout };
  const streamMode = options.streamMode === undefined ? {} : { streamMode: options.streamMode };
  return serveUntilStopped(options, ctx, configDir, {
    ...base,
    start: (o) => start({ ...o, upstream, ...timeout, ...streamMode }),
  });
}
