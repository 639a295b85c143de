import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { expect } from "vitest";
import type { StartOptions } from "../../src/server/start.js";
import { startTestServer } from "./sockets.js";

/** One scrape of `/metrics`, parsed by a Prometheus text-format parser (not by this project's code). */
export interface Scrape {
  readonly text: string;
  /** Every series; a histogram's `_bucket`, `_sum` and `_count` series come as families of their own. */
  readonly families: readonly MetricFamily[];
  /** The sum of the named series' samples whose labels include `labels`; 0 if none. */
  value(name: string, labels?: Record<string, string>): number;
}

/**
 * The parser merges the series of a histogram that has labels into one unlabelled sample
 * (github.com/yunyu/parse-prometheus-text-format issue 13, still open): without its TYPE line
 * each series parses as a family of its own, labels intact. The whole text, TYPE lines included,
 * is parsed first, so a malformed line fails either way.
 */
function parse(text: string): MetricFamily[] {
  parsePrometheusTextFormat(text);
  return parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram\n/gm, ""));
}

export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = parse(text);
  return {
    text,
    families,
    value(name, labels = {}) {
      // A histogram's series, parsed untyped, come back as one family per label set.
      const samples = families.filter((f) => f.name === name).flatMap((f) => f.metrics);
      const matching = samples.filter((sample) =>
        Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
      );
      return matching.reduce((sum, sample) => sum + Number(sample.value), 0);
    },
  };
}

/** A real server with its metrics listener on a free loopback port, and one encoder thread. */
export async function startMetered(options: Partial<StartOptions> = {}) {
  const started = await startTestServer({ metrics: { port: 0 }, encoderWorkers: 1, ...options });
  const { metricsUrl } = started.server;
  if (!metricsUrl) throw new Error("no metrics listener");
  return { ...started, metricsUrl };
}

/** A check's status, its body read and dropped. */
export async function check(url: string, path: string, message: string, headers: Record<string, string>) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ message }),
  });
  await res.arrayBuffer();
  return res.status;
}
