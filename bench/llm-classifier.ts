/**
 * The `llm` guardrail's classifier alone, over vectors embedded beforehand:
 * `npx tsx bench/llm-classifier.ts`. What a check costs on top of the shared sentence encoder
 * (bench/encoder.ts times that): the n-gram features and the MLP over each window's vector, and
 * the n-gram fallback with no vectors. Target: well under 1 ms per check for a 60-word text.
 */
import { embedText } from "../src/engine/embedding.js";
import { loadInjectionClassifier } from "../src/guardrails/llm/classifier.js";
import { createUseLiteEncoder } from "../src/models/use-lite/index.js";
import { cleanText } from "../src/text/normalize.js";
import { benchArgs } from "./lib/args.js";

// No flags; --help says so instead of running.
benchArgs("npx tsx bench/llm-classifier.ts", {});

const ITERATIONS = 2_000;

function time(label: string, run: (i: number) => unknown): void {
  for (let i = 0; i < 200; i++) run(i); // warm up the JIT
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) run(i);
  const microseconds = ((performance.now() - started) * 1000) / ITERATIONS;
  console.log(`${label.padEnd(52)} ${microseconds.toFixed(1).padStart(8)} µs/check`);
}

const text =
  "Could you help me plan a three day trip to Lisbon in early spring? I like museums, long walks and seafood, " +
  "but I do not enjoy crowded nightlife. Please suggest a rough itinerary for each day, a neighbourhood to stay in, " +
  "and a couple of restaurants that are not too expensive. Also tell me whether I need to book the tram in advance.";

const classifier = await loadInjectionClassifier();
const encoder = createUseLiteEncoder({ autoBuild: false });
try {
  const embedded = await embedText(encoder, cleanText(text));
  console.log(`${text.split(/\s+/).length}-word text, ${embedded.windows.length} window(s)`);
  // A different text each time (the vectors stay), so nothing is served from a cache.
  time("n-grams + MLP over given vectors", (i) => classifier.score(`${text} ${i}`, embedded));
  time("n-gram fallback (no vectors)", (i) => classifier.score(`${text} ${i}`));
} finally {
  await encoder.close();
}
