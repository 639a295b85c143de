import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/eval/readers/check-text.js";

const file = async (bytes: Buffer | string) => {
  const path = join(await mkdtemp(join(tmpdir(), "guardrail-text-")), "data");
  await writeFile(path, bytes);
  return path;
};
const CHUNK = 65536; // what checkText reads at a time

describe("checkText", () => {
  it("accepts UTF-8, a BOM, NUL characters and a character cut by a chunk boundary", async () => {
    expect(await checkText(await file("\ufefftext,label\nhéllo ☃ 😀,0\n"))).toBeUndefined();
    expect(await checkText(await file("text,label\nnul \u0000 inside,0\n"))).toBeUndefined();
    const cut = Buffer.concat([Buffer.from("x".repeat(CHUNK - 1)), Buffer.from("€\nok\n")]);
    expect(await checkText(await file(cut))).toBeUndefined();
  });

  it("names the line of the first byte that is not UTF-8, across chunks too", async () => {
    const latin1 = Buffer.concat([Buffer.from("text\nok\n"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]);
    expect(await checkText(await file(latin1))).toMatch(/^line 3 is not UTF-8 text \(binary data/);
    // A broken character whose first byte ends one chunk and whose next byte starts the next.
    const split = Buffer.concat([
      Buffer.from("x\n".repeat(CHUNK / 2 - 1)),
      Buffer.from([0x78, 0xe2, 0x41, 0x0a]),
    ]);
    expect(await checkText(await file(split))).toMatch(/^line 32768 is not UTF-8 text/);
    expect(await checkText(await file(Buffer.from([0x61, 0x0a, 0xe2, 0x82])))).toMatch(
      /^line 2 is not UTF-8 text: the file ends inside a character/,
    );
    expect(await checkText(await file(Buffer.from([0x89, 0x50, 0x4e, 0x47])))).toMatch(
      /^line 1 is not UTF-8/,
    );
  });

  it("recognises UTF-16 with or without a byte-order mark", async () => {
    expect(await checkText(await file(Buffer.from("\ufefftext\n", "utf16le")))).toMatch(/^is UTF-16 text; /);
    expect(await checkText(await file(Buffer.from("text\n", "utf16le")))).toMatch(/^is UTF-16 text; /);
    expect(await checkText(await file(Buffer.from("\ufefftext\n", "utf16le").swap16()))).toMatch(
      /^is UTF-16 text; /,
    );
  });

  it("refuses a line longer than the most a row may take, wherever it ends", async () => {
    const max = 100_000;
    const ok = `${"a".repeat(max)}\n${"b".repeat(max)}`;
    expect(await checkText(await file(ok), max)).toBeUndefined();
    const long = `short\n${"a".repeat(max)}\nshort\n${"b".repeat(max + 1)}\n`;
    expect(await checkText(await file(long), max)).toBe(
      "line 4 is longer than 0.1 MiB, the longest line batch reads",
    );
  });
});
