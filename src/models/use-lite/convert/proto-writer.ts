/**
 * A minimal protobuf encoder: just the two wire types ONNX needs here (varint and
 * length-delimited). Hand-written so the converter needs no protobuf runtime at install time.
 * Wire format: https://protobuf.dev/programming-guides/encoding/
 */
export class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private scratch: number[] = [];
  private size = 0;

  /** Unsigned or negative integer as a varint; negatives take ten bytes, as int64 requires. */
  varint(field: number, value: number | bigint): this {
    this.key(field, 0);
    this.rawVarint(BigInt.asUintN(64, BigInt(value)));
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, 2);
    this.rawVarint(BigInt(value.byteLength));
    this.flushScratch();
    // Weights run to megabytes: keep a reference instead of copying byte by byte.
    this.chunks.push(value);
    this.size += value.byteLength;
    return this;
  }

  message(field: number, write: (inner: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    write(inner);
    return this.bytes(field, inner.finish());
  }

  /** Repeated int64 as one packed field (the proto3 default, accepted for proto2 fields too). */
  packedInts(field: number, values: readonly (number | bigint)[]): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.rawVarint(BigInt.asUintN(64, BigInt(v)));
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    this.flushScratch();
    if (this.chunks.length === 1 && this.chunks[0]) return this.chunks[0];
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }

  private key(field: number, wireType: number): void {
    this.rawVarint(BigInt((field << 3) | wireType));
  }

  private rawVarint(value: bigint): void {
    let v = value;
    while (v > 0x7fn) {
      this.scratch.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.scratch.push(Number(v));
  }

  private flushScratch(): void {
    if (this.scratch.length === 0) return;
    this.chunks.push(Uint8Array.from(this.scratch));
    this.size += this.scratch.length;
    this.scratch = [];
  }
}
