import { Growable } from "./growable.js";
import { round } from "./metrics.js";
import type { Latency } from "./summary.js";
import { MIN_SAMPLES, tooFew } from "./too-few.js";

/** Per-row latencies as float32 (4 bytes a row); percentiles by nearest rank. */
export class LatencyRecorder {
  readonly #values = new Growable((n) => new Float32Array(n));

  add(ms: number): void {
    this.#values.push(ms);
  }

  summary(): Latency {
    const sorted = this.#values.view().slice().sort();
    const n = sorted.length;
    const at = (q: number) =>
      n === 0 ? null : round(sorted[Math.max(0, Math.ceil(q * n) - 1)] as number, 3);
    let sum = 0;
    for (const v of sorted) sum += v;
    const withheld: Partial<Record<keyof typeof MIN_SAMPLES, string>> = {};
    const percentile = (name: keyof typeof MIN_SAMPLES, q: number) => {
      if (n === 0 || n >= MIN_SAMPLES[name]) return at(q);
      withheld[name] = tooFew("rows timed", n, MIN_SAMPLES[name]);
      return null;
    };
    return {
      p50_ms: percentile("p50_ms", 0.5),
      p95_ms: percentile("p95_ms", 0.95),
      p99_ms: percentile("p99_ms", 0.99),
      mean_ms: n === 0 ? null : round(sum / n, 3),
      max_ms: n === 0 ? null : round(sorted[n - 1] as number, 3),
      ...(Object.keys(withheld).length > 0 ? { withheld } : {}),
    };
  }
}
