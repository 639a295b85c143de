import type { MiddlewareHandler } from "hono";
import { resolveProfile, resolveRequest } from "../../auth/resolve.js";
import type { CompiledConfig } from "../../engine/compile-config.js";
import type { AppEnv } from "../types.js";

/**
 * The profile a request is checked with. Beyond loopback the org API key is required, as `serve`
 * requires it (src/auth/resolve.ts); on loopback only this machine can call, so a key is asked for
 * only when sent (a wrong one is still refused). `X-App-ID` picks the profile either way.
 */
export function proxyAuth(getConfig: () => CompiledConfig, requireKey: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const apiKey = c.req.header("x-api-key");
    const appId = c.req.header("x-app-id");
    const config = getConfig();
    c.set(
      "resolved",
      requireKey || apiKey !== undefined
        ? resolveRequest({ apiKey, appId }, config)
        : resolveProfile(appId, config),
    );
    await next();
  };
}
