import { createRequire } from "node:module";

/** The fields of autocannon's documented result that the benches read. Latencies are whole ms. */
export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface LoadRequest {
  method: "POST" | "GET";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

type Autocannon = (options: Record<string, unknown>) => Promise<LoadResult>;
// autocannon ships no types; CommonJS, so loaded through require.
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/**
 * Runs autocannon against `url` for `seconds` with `connections`, each connection cycling through
 * `requests` in turn. Not pipelined (one request in flight per connection), as real clients are.
 * `[<id>]` in a body becomes a random id per request, so no two requests are alike.
 */
export function load(options: {
  url: string;
  connections: number;
  seconds: number;
  requests: readonly LoadRequest[];
}): Promise<LoadResult> {
  return autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    requests: options.requests,
    idReplacement: true,
  });
}
