import type { MiddlewareHandler } from "hono";
import { resolveRequest } from "../auth/resolve.js";
import type { CompiledConfig } from "../engine/compile-config.js";
import type { AppEnv } from "./types.js";

/**
 * Runs before anything reads the body, so a caller without a valid key learns nothing about its
 * payload or about which App IDs exist. The config is fetched per request: a reload swaps it
 * atomically and every request sees one whole config, old or new.
 */
export function authenticate(getConfig: () => CompiledConfig): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const credentials = { apiKey: c.req.header("x-api-key"), appId: c.req.header("x-app-id") };
    c.set("resolved", resolveRequest(credentials, getConfig()));
    await next();
  };
}
