/**
 * Counts of unsigned 32-bit hashes, in the order each was first seen: what a `Map<number, number>`
 * gives, in typed arrays. A Map boxes every key ≥ 2³¹ (half of all hashes) as a heap number and
 * hashes it again on each lookup; counting a response's n-grams was the largest item of an
 * output-check's work outside the encoder. The order matters: sums over the features run in it.
 */
export class HashCounts {
  /** 1 + the key's index in `keys` at its open-addressing slot; 0 marks a free slot. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  readonly keys: Uint32Array;
  readonly counts: Int32Array;
  size = 0;

  /** Room for `maxKeys` distinct keys (more throws). */
  constructor(maxKeys: number) {
    let capacity = 16;
    while (capacity < 2 * maxKeys) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.keys = new Uint32Array(maxKeys);
    this.counts = new Int32Array(maxKeys);
  }

  bump(hash: number): void {
    const { slots, keys, mask } = this;
    for (let at = (hash ^ (hash >>> 15)) & mask; ; at = (at + 1) & mask) {
      const entry = slots[at] as number;
      if (entry === 0) {
        if (this.size === keys.length) throw new RangeError(`HashCounts: more than ${keys.length} keys`);
        keys[this.size] = hash;
        this.counts[this.size] = 1;
        slots[at] = ++this.size;
        return;
      }
      if (keys[entry - 1] === hash) {
        this.counts[entry - 1] = (this.counts[entry - 1] as number) + 1;
        return;
      }
    }
  }
}
