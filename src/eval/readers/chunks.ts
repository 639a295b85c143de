import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { readStream } from "./index.js";
import type { TableFormat, TableItem } from "./types.js";

/**
 * A byte range of whole rows, so worker threads can read and parse their own part of a file.
 * `head` is the header record (CSV/TSV) that every chunk is read behind; `firstLine` is the line
 * the range starts on.
 */
export interface ByteChunk {
  readonly start: number;
  readonly end: number;
  readonly firstLine: number;
  readonly head: { readonly end: number; readonly lines: number };
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Whether `planChunks` can split the file: it cuts only at `\n`, so a file whose rows end in a
 * bare `\r` (old Mac line ends, which csv-parse accepts) is read in one piece instead.
 */
export async function canSplit(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(65536), 0, 65536, 0);
    const head = buffer.subarray(0, bytesRead);
    const cr = head.indexOf(CR);
    return cr === -1 || cr + 1 === bytesRead || head[cr + 1] === LF;
  } finally {
    await handle.close();
  }
}

/**
 * Splits a file into chunks of about `target` bytes that end at a row boundary. For CSV/TSV a
 * boundary is a `\n` outside quotes: counting every `"` from the start is exact for RFC 4180
 * quoting (an escaped `""` toggles twice), which is why callers split only files whose validation
 * pass found no broken quoting. JSON Lines cannot hold a raw newline inside a row.
 */
export async function* planChunks(
  file: string,
  format: TableFormat,
  target = 32 * 1024,
): AsyncGenerator<ByteChunk> {
  const quoted = format !== "jsonl";
  let head: ByteChunk["head"] | undefined = quoted ? undefined : { end: 0, lines: 0 };
  let inQuote = false;
  let offset = 0; // of the current buffer in the file
  let lines = 0; // newlines before the current position
  let start = head?.end ?? 0;
  let startLine = 1;
  for await (const data of createReadStream(file, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
    let i = 0;
    for (;;) {
      const q = quoted ? data.indexOf(QUOTE, i) : -1;
      const n = data.indexOf(LF, i);
      if (q !== -1 && (n === -1 || q < n)) {
        inQuote = !inQuote;
        i = q + 1;
        continue;
      }
      if (n === -1) break;
      i = n + 1;
      lines++;
      if (inQuote) continue;
      const at = offset + i;
      if (head === undefined) {
        head = { end: at, lines };
        start = at;
        startLine = lines + 1;
      } else if (at - start >= target) {
        yield { start, end: at, firstLine: startLine, head };
        start = at;
        startLine = lines + 1;
      }
    }
    offset += data.length;
  }
  if (head !== undefined && offset > start) yield { start, end: offset, firstLine: startLine, head };
}

/**
 * Reads one chunk's rows (behind the header, for CSV/TSV). Lines are the file's; rows count from 1
 * at the chunk's first row, so the caller adds the rows of the chunks before it.
 */
export async function* readChunk(
  file: string,
  format: TableFormat,
  chunk: ByteChunk,
): AsyncGenerator<TableItem> {
  async function* bytes() {
    if (chunk.head.end > 0) yield* createReadStream(file, { start: 0, end: chunk.head.end - 1 });
    yield* createReadStream(file, { start: chunk.start, end: chunk.end - 1 });
  }
  const shift = chunk.firstLine - 1 - chunk.head.lines;
  for await (const item of readStream(Readable.from(bytes(), { objectMode: false }), format)) {
    yield item.kind === "columns" ? item : { ...item, line: item.line + shift };
  }
}
