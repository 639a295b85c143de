import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { expect } from "vitest";

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
