import { describe, expect, it } from "vitest";
import { createStdoutLogger } from "../../src/server/start.js";
import { logRecord } from "../../src/server/types.js";

describe("the stdout logger", () => {
  it("writes the lines of one event-loop turn in one write, in order", async () => {
    const writes: string[] = [];
    const out = { write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream;
    const log = createStdoutLogger(out);
    log(logRecord("info", "first"));
    log(logRecord("info", "second"));
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const lines = (writes[0] ?? "")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line).msg);
    expect(lines).toEqual(["first", "second"]);
    log(logRecord("warn", "third"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
  });
});
