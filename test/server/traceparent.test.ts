import { describe, expect, it } from "vitest";
import { traceIdOf } from "../../src/server/traceparent.js";

// Examples from the W3C Trace Context spec (https://www.w3.org/TR/trace-context/#examples-of-http-traceparent-headers).
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

describe("traceIdOf", () => {
  it.each([
    ["sampled", `00-${TRACE}-${PARENT}-01`],
    ["not sampled", `00-${TRACE}-${PARENT}-00`],
    ["a later version, with a field after the flags", `01-${TRACE}-${PARENT}-01-what-the-future-holds`],
    ["a later version with exactly four fields", `cc-${TRACE}-${PARENT}-09`],
  ])("reads the trace id of a valid header: %s", (_name, header) => {
    expect(traceIdOf(header)).toBe(TRACE);
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["version ff (forbidden)", `ff-${TRACE}-${PARENT}-01`],
    ["version 00 with a fifth field", `00-${TRACE}-${PARENT}-01-extra`],
    ["version 00 with text after the flags", `00-${TRACE}-${PARENT}-01x`],
    ["an all-zero trace id", `00-${"0".repeat(32)}-${PARENT}-01`],
    ["an all-zero parent id", `00-${TRACE}-${"0".repeat(16)}-01`],
    ["uppercase hex", `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ["a short trace id", `00-${TRACE.slice(1)}-${PARENT}-01`],
    ["a long parent id", `00-${TRACE}-${PARENT}0-01`],
    ["one-digit flags", `00-${TRACE}-${PARENT}-1`],
    ["non-hex", `00-${TRACE.replace("4", "g")}-${PARENT}-01`],
    ["two headers joined by a comma", `00-${TRACE}-${PARENT}-01, 00-${TRACE}-${PARENT}-01`],
    ["leading text", ` x00-${TRACE}-${PARENT}-01`],
    ["a later version that is too long for any header", `01-${TRACE}-${PARENT}-01-${"a".repeat(600)}`],
  ])("ignores an invalid header: %s", (_name, header) => {
    expect(traceIdOf(header)).toBeUndefined();
  });
});
