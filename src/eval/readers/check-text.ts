import { createReadStream } from "node:fs";

const LF = 0x0a;
const UTF8 = "batch reads CSV, TSV and JSON Lines in UTF-8";
const NOT_UTF8 = `(binary data, or another encoding such as Latin-1); ${UTF8} (iconv -t UTF-8 converts)`;
/** Longest line read: rows stream, but a line is held whole (and as one string) while parsed. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

/** Bytes a UTF-8 sequence starting with `lead` takes; 0 for a byte no sequence starts with. */
const sequenceLength = (lead: number) =>
  lead < 0x80
    ? 1
    : lead >= 0xc2 && lead <= 0xdf
      ? 2
      : lead >= 0xe0 && lead <= 0xef
        ? 3
        : lead >= 0xf0 && lead <= 0xf4
          ? 4
          : 0;

/** How many bytes at the end of `bytes` begin a character the next chunk finishes. */
function openTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back] as number;
    if (b < 0x80 || b >= 0xc0) return sequenceLength(b) > back ? back : 0;
  }
  return 0;
}

/** The offset of the first byte at which strict UTF-8 decoding fails, or -1. */
function firstInvalid(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes[i] as number);
    if (length === 0) return i;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(i, i + length));
    } catch {
      return i;
    }
    i += length;
  }
  return -1;
}

function countLines(bytes: Uint8Array, end: number): number {
  let n = 0;
  for (let i = bytes.indexOf(LF); i !== -1 && i < end; i = bytes.indexOf(LF, i + 1)) n++;
  return n;
}

/**
 * Why a file cannot be read as a table, or undefined when it can: it is UTF-16 (a byte-order mark,
 * or a NUL byte among its first two: no CSV header or JSON object starts so), its bytes are not
 * UTF-8 (binary data, Latin-1 or Windows-1252 exports), or a line is over MAX_LINE_BYTES. Read
 * anyway, the first two give garbage columns, or texts with U+FFFD where the file had a character
 * (figures for a data set other than the one on disk); the third exhausts memory or V8's longest
 * string (a 600 MB line crashed the reader). One streaming pass at the native decoder's speed; the
 * byte-by-byte search runs only to place an error.
 */
export async function checkText(file: string, maxLineBytes = MAX_LINE_BYTES): Promise<string | undefined> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let line = 1;
  let first = true;
  let open = 0; // bytes of the line not ended yet
  let carry: Uint8Array = new Uint8Array(0);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
    if (first) {
      const bom = (chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff);
      if (bom || chunk[0] === 0 || chunk[1] === 0)
        return `is UTF-16 text; ${UTF8} (iconv -f UTF-16 -t UTF-8 converts)`;
      first = false;
    }
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      const at = firstInvalid(Buffer.concat([carry, chunk])) - carry.length;
      return `line ${line + countLines(chunk, Math.max(0, at))} is not UTF-8 text ${NOT_UTF8}`;
    }
    const lf = chunk.indexOf(LF);
    if (open + (lf === -1 ? chunk.length : lf) > maxLineBytes) {
      return `line ${line} is longer than ${mib(maxLineBytes)}, the longest line batch reads`;
    }
    open = lf === -1 ? open + chunk.length : chunk.length - chunk.lastIndexOf(LF) - 1;
    line += countLines(chunk, chunk.length);
    carry = chunk.subarray(chunk.length - openTail(chunk));
  }
  try {
    decoder.decode();
  } catch {
    return `line ${line} is not UTF-8 text: the file ends inside a character ${NOT_UTF8}`;
  }
  return undefined;
}
