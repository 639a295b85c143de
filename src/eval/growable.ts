type TypedArray = Float64Array | Float32Array | Int8Array;

/** An append-only typed array that doubles when full: numbers per row without an object per row. */
export class Growable<T extends TypedArray> {
  #data: T;
  #length = 0;
  readonly #make: (size: number) => T;

  constructor(make: (size: number) => T, initial = 1024) {
    this.#make = make;
    this.#data = make(initial);
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#data.length) {
      const next = this.#make(this.#data.length * 2);
      next.set(this.#data);
      this.#data = next;
    }
    this.#data[this.#length++] = value;
  }

  /** A view of the values pushed so far (shares memory: copy before sorting in place). */
  view(): T {
    return this.#data.subarray(0, this.#length) as T;
  }
}
