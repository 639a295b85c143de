import { describe, expect, it } from "vitest";
import { convertGraph } from "../../../../src/models/use-lite/convert/convert.js";
import { ProtoWriter } from "../../../../src/models/use-lite/convert/proto-writer.js";
import { readTfjsGraph } from "../../../../src/models/use-lite/convert/tfjs-graph.js";
import { sourceDir } from "../../../../src/models/use-lite/model-cache.js";

describe("protobuf writer", () => {
  it("encodes varints, negative int64s and nested messages", () => {
    expect([...new ProtoWriter().varint(1, 150).finish()]).toEqual([0x08, 0x96, 0x01]);
    const minusOne = [...new ProtoWriter().varint(3, -1).finish()];
    expect(minusOne).toEqual([0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    const nested = new ProtoWriter().message(2, (m) => m.string(1, "ab")).finish();
    expect([...nested]).toEqual([0x12, 0x04, 0x0a, 0x02, 0x61, 0x62]);
  });
});

describe("TF.js → ONNX converter", () => {
  it("converts the packaged USE-lite graph deterministically", async () => {
    const graph = await readTfjsGraph(sourceDir());
    const a = convertGraph(graph);
    const b = convertGraph(graph);
    expect(a.byteLength).toBeGreaterThan(27_000_000);
    expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(0);
  });

  it("names the node and op it cannot translate", async () => {
    const graph = await readTfjsGraph(sourceDir());
    const nodes = graph.nodes.map((n) => (n.op === "Tanh" ? { ...n, op: "Erfinv" } : n));
    expect(() => convertGraph({ ...graph, nodes })).toThrow(/no translator for TF op Erfinv/);
  });
});
