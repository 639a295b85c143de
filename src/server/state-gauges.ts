import { Gauge, type Registry } from "prom-client";
import type { PoolStats } from "../models/use-lite/encoder-pool.js";

/** What the gauges read at scrape time. */
export interface MetricSources {
  readonly version: string;
  /** The loaded encoder's id, or undefined when no profile needs one. */
  readonly encoderId: () => string | undefined;
  /** When the config now serving was loaded (ms since the epoch). */
  readonly configLoadedAt: () => number;
  readonly pool?: () => PoolStats;
  readonly laneInFlight?: () => number;
}

/** Gauges read when scraped, from the state the server already keeps. */
export function registerStateGauges(registers: Registry[], sources: MetricSources): void {
  const { pool, laneInFlight } = sources;
  new Gauge({
    name: "guardrail_build_info",
    help: "Always 1; the labels say which version and which encoder are serving",
    labelNames: ["version", "encoder"] as const,
    registers,
    collect() {
      this.reset(); // the encoder changes when a reload first needs one
      this.set({ version: sources.version, encoder: sources.encoderId() ?? "none" }, 1);
    },
  });
  new Gauge({
    name: "guardrail_config_loaded_timestamp_seconds",
    help: "When the config now serving was loaded (Unix time)",
    registers,
    collect() {
      this.set(sources.configLoadedAt() / 1000);
    },
  });
  new Gauge({
    name: "guardrail_config_age_seconds",
    help: "Seconds since the config now serving was loaded",
    registers,
    collect() {
      this.set((Date.now() - sources.configLoadedAt()) / 1000);
    },
  });
  if (pool) {
    const gauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(pool()));
        },
      });
    gauge("guardrail_encoder_workers", "Encoder worker threads", (s) => s.workers);
    gauge("guardrail_encoder_busy_workers", "Encoder workers embedding a batch now", (s) => s.busy);
    gauge("guardrail_encoder_queue_depth", "Batches of texts waiting for an encoder worker", (s) => s.queued);
  }
  if (laneInFlight) {
    new Gauge({
      name: "guardrail_text_lane_checks_in_flight",
      help: "Long-text checks sent to the text lane's thread and not answered yet",
      registers,
      collect() {
        this.set(laneInFlight());
      },
    });
  }
}
