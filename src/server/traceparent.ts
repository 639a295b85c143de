/**
 * A W3C Trace Context `traceparent` header (https://www.w3.org/TR/trace-context/#traceparent-header):
 * `version-traceid-parentid-flags`, lowercase hex. Version 00 is exactly those four fields; a later
 * version may append fields after another `-`, and is read for the first four (the spec's rule
 * for versions a parser does not know). Version ff, an all-zero trace or parent id, uppercase hex
 * and anything else are invalid.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-|$)/;

/** Long enough for any header a caller means; Node already caps all headers at 16 KiB. */
const MAX_LENGTH = 512;

/**
 * The trace id of a valid header, else undefined: an invalid header is ignored (the spec says
 * to start a new trace), never an error for the request. Two `traceparent` headers reach here
 * joined by a comma, which no version 00 header accepts.
 */
export function traceIdOf(header: string | undefined): string | undefined {
  if (header === undefined || header.length > MAX_LENGTH) return undefined;
  const match = TRACEPARENT.exec(header);
  if (!match) return undefined;
  const [, version, traceId = "", parentId = "", more] = match;
  if (version === "ff" || (version === "00" && more === "-")) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  return traceId;
}
