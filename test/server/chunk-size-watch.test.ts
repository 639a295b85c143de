import { describe, expect, it } from "vitest";
import { chunkFraming } from "../../src/server/chunk-size-watch.js";

const HEAD = "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";

/** What the watch says after each piece of a connection's bytes, fed as they would arrive. */
function follow(pieces: readonly string[], maxBytes = 16) {
  const next = chunkFraming(maxBytes);
  return pieces.map((piece) => next(Buffer.from(piece, "latin1")));
}

describe("chunkFraming", () => {
  it.each([
    ["a size past the limit", "refuse", [`${HEAD}11\r\n`]],
    ["2^64-1 in pieces", "refuse", [HEAD, "ffffffff", "ffffffff"]],
    ["sizes that add up past it", "refuse", [`${HEAD}8\r\n12345678\r\n9\r\n`]],
    ["a size within it", "ok", [`${HEAD}10\r\n`]],
    ["a chunked coding after another", "refuse", [`${HEAD.replace("chunked", "gzip, CHUNKED")}ff\r\n`]],
  ] as const)("%s → %s", (_name, verdict, pieces) => {
    expect(follow(pieces).at(-1)).toBe(verdict);
  });

  it("follows message after message: Content-Length bodies, extensions, trailers, stray CRLFs", () => {
    const body = "{ff\r\nff}";
    const plain = `POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const chunked = `${HEAD}8;a=b\r\n${body}\r\n0\r\nX-T: ff\r\n\r\n`;
    expect(
      follow([plain, "\r\n", chunked, chunked.slice(0, 40), chunked.slice(40), `${HEAD}ff\r\n`]),
    ).toEqual(["ok", "ok", "ok", "ok", "ok", "refuse"]);
  });

  it.each([
    ["a CONNECT, whose socket Node hands over", ["CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\nffffff\r\n"]],
    ["a size line that is no hex number", [`${HEAD}zz\r\n`]],
    ["a Content-Length that is no number", ["POST /x HTTP/1.1\r\nContent-Length: 1e9\r\n\r\n"]],
    ["a final coding other than chunked", [HEAD.replace("chunked", "chunked, gzip")]],
    ["a head longer than any Node accepts", [`GET / HTTP/1.1\r\nX: ${"a".repeat(70_000)}`]],
  ] as const)("stops following (never refuses) %s", (_name, pieces) => {
    expect(follow(pieces).at(-1)).toBe("stop");
  });
});
