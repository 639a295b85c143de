// Kept apart from context.ts so the entry point loads no config code (zod, yaml) before it knows
// which command runs: `--help` and `--version` stay fast.

import type { Readable } from "node:stream";

/** Where a command reads and writes. Tests pass strings in and collect strings out. */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /**
   * Reads all of stdin, or stops once more than `maxBytes` arrived (the caller then sees a text
   * over its limit instead of holding gigabytes); only called when stdin is not a terminal.
   */
  readonly readStdin: (maxBytes?: number) => Promise<string>;
  readonly stdinIsTTY: boolean;
  /** stdin as a stream, for inputs too large to hold (batch); absent in tests that pass strings. */
  readonly openStdin?: () => Readable;
  /** stdout is a terminal: live views (batch's progress) may redraw it. */
  readonly stdoutIsTTY?: boolean;
  /** stdout is a terminal and NO_COLOR is unset: escape codes are welcome. */
  readonly color: boolean;
}

export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async (maxBytes = Number.POSITIVE_INFINITY) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of process.stdin) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size > maxBytes) break; // ends the iteration and destroys the stream
      }
      return Buffer.concat(chunks).toString("utf8");
    },
    stdinIsTTY: process.stdin.isTTY === true,
    openStdin: () => process.stdin,
    stdoutIsTTY: process.stdout.isTTY === true,
    // https://no-color.org: any non-empty NO_COLOR disables colour.
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  };
}
