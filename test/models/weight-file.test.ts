import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { ModelUnavailableError } from "../../src/models/model-error.js";
import {
  dequantise,
  modelFiles,
  packTable,
  quantise,
  quantiseTables,
  writeHeader,
  writeTable,
} from "../../src/models/weight-file.js";

const MODELS = fileURLToPath(new URL("../../models/", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "weight-file-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The float weights an int16 table stands for, as the trainer held them before quantising. */
const floats = (q: Int16Array, scale: number) => Float64Array.from(q, (x) => x * scale);

/** Writing back what was read gives the committed file, byte for byte (gzip included). */
function expectSameFile(file: string, values: Int16Array | Float32Array) {
  expect(packTable(values).equals(readFileSync(file))).toBe(true);
}

interface Header {
  dim: number;
  scale: number;
  tags: number;
  mlp: { input: number; hidden: number };
  disclosure: { bits: number; scale: number; file: string };
  extraction: { bits: number; scale: number; file: string };
  tables: { length: number; scale: number }[];
}

function open(folder: string) {
  const files = modelFiles(join(MODELS, folder), "npm run train:x");
  const header = files.header<Header>();
  // The header writer is the one the trainers used (Biome has since re-wrapped some arrays, so the
  // parsed values are compared, not the text).
  const file = join(scratch, `${folder.replaceAll("/", "-")}.json`);
  writeHeader(file, header);
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(
    JSON.parse(readFileSync(files.path("model.json"), "utf8")),
  );
  return { files, header };
}

describe("the committed model files round-trip through the reader and the writer", () => {
  it("llm: weights.bin.gz (int16) and mlp.bin.gz (float32)", () => {
    const { files, header } = open("llm");
    const q = files.int16("weights.bin.gz", header.dim);
    const again = quantise(floats(q, header.scale));
    expect(again.scale).toBe(header.scale);
    expectSameFile(files.path("weights.bin.gz"), again.values);
    const { input, hidden } = header.mlp;
    expectSameFile(files.path("mlp.bin.gz"), files.float32("mlp.bin.gz", input * hidden + 2 * hidden + 1));
  });

  it("system-prompt-protection: disclosure.bin.gz and extraction.bin.gz", () => {
    const { files, header } = open("system-prompt-protection");
    for (const table of [header.disclosure, header.extraction]) {
      const again = quantise(floats(files.int16(table.file, 1 << table.bits), table.scale));
      expect(again.scale).toBe(table.scale);
      expectSameFile(files.path(table.file), again.values);
    }
  });

  it("pii/tagger: weights.bin.gz", () => {
    const { files, header } = open("pii/tagger");
    const again = quantise(floats(files.int16("weights.bin.gz", header.dim * header.tags), header.scale));
    expect(again.scale).toBe(header.scale);
    expectSameFile(files.path("weights.bin.gz"), again.values);
  });

  it("content-moderation: weights.bin.gz, several tables with a scale each", () => {
    const { files, header } = open("content-moderation");
    const q = files.int16(
      "weights.bin.gz",
      header.tables.reduce((n, t) => n + t.length, 0),
    );
    let offset = 0;
    const tables = header.tables.map((t) => {
      const table = floats(q.subarray(offset, offset + t.length), t.scale);
      offset += t.length;
      return table;
    });
    const again = quantiseTables(tables);
    expect(again.scales).toEqual(header.tables.map((t) => t.scale));
    expectSameFile(files.path("weights.bin.gz"), again.values);
  });
});

describe("weight files", () => {
  const dir = join(scratch, "model");
  const files = modelFiles(dir, "npm run train:x");

  it("quantises to ±32767 with one scale and dequantises as value × scale", () => {
    const { scale, values } = quantise([0.5, -1, 0.25, 0]);
    expect(scale).toBe(1 / 32767);
    expect([...values]).toEqual([16384, -32767, 8192, 0]);
    expect(quantise([0, 0]).scale).toBe(1);
    expect([...dequantise(Int16Array.of(1, 2, -4), 0.5, 1)]).toEqual([1, -2]);
  });

  it("reads back what it writes, int16 and float32", () => {
    mkdirSync(dir, { recursive: true });
    writeTable(join(dir, "a.bin.gz"), Int16Array.of(1, -2, 32767));
    writeTable(join(dir, "b.bin.gz"), Float32Array.of(0.5, -1.25));
    expect([...files.int16("a.bin.gz", 3)]).toEqual([1, -2, 32767]);
    expect([...files.float32("b.bin.gz", 2)]).toEqual([0.5, -1.25]);
  });

  it("names the file and the rebuild command for a missing, short or corrupt file", () => {
    mkdirSync(dir, { recursive: true });
    const expectUnavailable = (read: () => unknown, file: string, why: RegExp) => {
      let error: unknown;
      try {
        read();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ModelUnavailableError);
      expect((error as ModelUnavailableError).file).toBe(join(dir, file));
      expect((error as Error).message).toMatch(why);
      expect((error as Error).message).toContain("rebuild it with `npm run train:x`");
    };
    writeFileSync(join(dir, "short.bin.gz"), gzipSync(Buffer.alloc(5)));
    writeFileSync(join(dir, "plain.bin.gz"), "not gzip");
    writeFileSync(join(dir, "model.json"), "{ not json");
    expectUnavailable(() => files.int16("missing.bin.gz", 1), "missing.bin.gz", /missing\.bin\.gz/);
    expectUnavailable(
      () => files.int16("short.bin.gz", 4),
      "short.bin.gz",
      /5 bytes where model\.json says 8/,
    );
    expectUnavailable(() => files.float32("plain.bin.gz", 1), "plain.bin.gz", /not gzip/);
    expectUnavailable(() => files.header(), "model.json", /not JSON/);
    expect(files.unusable("model.json", "unsupported format").message).toMatch(
      /model\.json \(unsupported format; rebuild it with `npm run train:x`\)/,
    );
  });
});
