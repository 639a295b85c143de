import { Transform } from "node:stream";
import { parse } from "csv-parse/sync";

/**
 * What every CSV reader in the project shares (RFC 4180, https://www.rfc-editor.org/rfc/rfc4180,
 * read with csv-parse): its base options, its error messages, and line numbers counted from
 * csv-parse's byte offsets, because csv-parse's own line count takes a CRLF inside a quoted field
 * for two lines.
 */

/** A UTF-8 byte order mark is dropped; blank lines are skipped (and still counted as lines). */
export const CSV_OPTIONS = { bom: true, skip_empty_lines: true } as const;

/** csv-parse's message without its own (miscounted) line number. */
export const csvReason = (message: string): string => message.replace(/ at line \d+/, "");

const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts lines in the bytes csv-parse reads, fed as they arrive (the whole text, or stream chunks
 * through `tap`). A line ends at \n, \r\n or a lone \r (old Mac files, which csv-parse accepts).
 * Offsets asked about must not decrease; consumed chunks are let go.
 */
export interface LineCounter {
  feed(chunk: Uint8Array | string): void;
  /** The line of the first byte at or after `offset` that is not part of a blank line. */
  startAt(offset: number): number;
  /** The line a record ending at `offset` (just after its line end, if it has one) ends on. */
  endOf(offset: number): number;
  /** A pass-through stream that feeds the counter every chunk before the parser gets it. */
  tap(): Transform;
}

export function createLineCounter(text?: string): LineCounter {
  const chunks: Uint8Array[] = [];
  let index = 0; // next byte of chunks[0]
  let at = 0; // offset of that byte in the input
  let line = 1;
  let previous = -1;
  // Counted at the \r of a \r\n, so a line end never waits for the next chunk.
  const advance = (offset: number, blankLines: boolean) => {
    while (chunks.length > 0) {
      const chunk = chunks[0] as Uint8Array;
      for (; index < chunk.length; index++, at++) {
        const byte = chunk[index] as number;
        if (at >= offset && !(blankLines && (byte === LF || byte === CR))) return;
        if (byte === CR || (byte === LF && previous !== CR)) line++;
        previous = byte;
      }
      chunks.shift();
      index = 0;
    }
  };
  const counter: LineCounter = {
    feed(chunk) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    },
    startAt(offset) {
      advance(offset, true);
      return line;
    },
    endOf(offset) {
      advance(offset, false);
      return previous === LF || previous === CR ? line - 1 : line;
    },
    tap: () =>
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          counter.feed(chunk);
          done(null, chunk);
        },
      }),
  };
  if (text !== undefined) counter.feed(text);
  return counter;
}

/**
 * Header-keyed rows of a CSV. A row whose field count differs from the header's throws (csv-parse's
 * error) rather than being padded or dropped, so a changed upstream file fails loudly.
 */
export function parseCsvObjects(text: string): Record<string, string>[] {
  return parse<Record<string, string>>(text, { ...CSV_OPTIONS, columns: true });
}
