import type { HeadOptions } from "./heads.js";

/** The heads' settings, shared by the trainer and the leave-one-source-out run. */
export function headOptions(seed: number): HeadOptions {
  const dense = { epochs: 10, lr: 0.05, l2: 1e-5, seed };
  return {
    binary: { bits: 18, epochs: 6, lr: 0.2, l2: 1e-6, seed },
    category: { bits: 16, epochs: 6, lr: 0.2, l2: 1e-6, seed },
    embedding: { binary: { bits: 9, ...dense }, category: { bits: 9, ...dense } },
    windowWords: 40,
    positiveWeight: 1.5,
  };
}
