import { z } from "zod";

/**
 * A name from a closed list, as a plain string checked by hand rather than `z.enum`: an unknown
 * name then gets one message that lists every known one (`unknown PII entity "X"; supported: …`).
 */
export function knownName(known: readonly string[], what: string, listedAs: "supported" | "valid") {
  const names = new Set(known);
  return z.string().refine((name) => names.has(name), {
    error: (issue) => `unknown ${what} "${String(issue.input)}"; ${listedAs}: ${known.join(", ")}`,
  });
}
