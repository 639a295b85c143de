import { describe, expect, it } from "vitest";
import { serverV8Flags } from "../../src/server/v8-tuning.js";

describe("serverV8Flags", () => {
  it("turns V8's memory reducer off for a server process by default", () => {
    expect(serverV8Flags([], undefined)).toEqual(["--no-memory-reducer"]);
    expect(serverV8Flags(["--enable-source-maps"], "--max-old-space-size=512")).toEqual([
      "--no-memory-reducer",
    ]);
  });

  it("keeps the operator's own choice, from the command line or NODE_OPTIONS, either spelling", () => {
    expect(serverV8Flags(["--memory-reducer"], undefined)).toEqual([]);
    expect(serverV8Flags([], "--max-old-space-size=512 --memory_reducer")).toEqual([]);
    expect(serverV8Flags(["--no-memory-reducer"], undefined)).toEqual([]);
  });

  it("does not mistake a longer flag for the reducer's", () => {
    expect(serverV8Flags(["--memory-reducer-for-small-heaps"], undefined)).toEqual(["--no-memory-reducer"]);
  });
});
