/**
 * Which batch an idle worker of the encoder pool (encoder-pool.ts) takes next: each call is cut
 * into batches, and the call with the fewest batches left goes first, less one batch for every
 * AGE_STEP_MS it has waited, so a one-window check never waits behind a long text's windows and a
 * long text is not starved by a stream of short ones.
 */

export interface Call {
  readonly texts: readonly string[];
  readonly vectors: Float32Array[];
  /** Batches not yet sent, as indices into `texts`. */
  readonly batches: number[][];
  /** Batches sent and not answered yet. */
  inFlight: number;
  /** When the call was made (performance.now()). */
  readonly arrived: number;
  /** Set once the call has resolved or rejected: later answers for it are dropped. */
  settled: boolean;
  readonly resolve: (vectors: Float32Array[]) => void;
  readonly reject: (error: Error) => void;
}

/** A call's texts in batches, similar lengths together so each batch pads little. */
export function toBatches(texts: readonly string[], size: number): number[][] {
  const order = texts.map((_, i) => i).sort((a, b) => (texts[a]?.length ?? 0) - (texts[b]?.length ?? 0));
  const batches: number[][] = [];
  for (let i = 0; i < order.length; i += size) batches.push(order.slice(i, i + size));
  return batches;
}

/** What waiting one batch's worth of time is worth: about ten times a batch of full windows. */
export const AGE_STEP_MS = 50;

/** The waiting call with the fewest batches left, counting its wait (see above); the earliest on a tie. */
export function nextCall(waiting: readonly Call[], now: number): number {
  const key = (call: Call) => call.batches.length * AGE_STEP_MS - (now - call.arrived);
  let best = 0;
  for (let i = 1; i < waiting.length; i++) {
    if (key(waiting[i] as Call) < key(waiting[best] as Call)) best = i;
  }
  return best;
}
