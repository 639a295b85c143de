import { isIPv6 } from "node:net";
import type { Recognizer } from "./recognizer.js";

// Dotted quads; octets are checked in code (0–255, no leading zeros) rather than in the regex. A
// quad inside a longer dotted run ("1.2.3.4.5", "10.0.0.1.2") is a version or an OID, not a host:
// the lookarounds refuse a dot-and-digit on either side, which Presidio does not.
const IPV4 = /(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d]|\.\d)/g;
// Candidates for RFC 4291 text forms, incl. "::" compression and an embedded IPv4 tail (tried
// first, so "::ffff:192.0.2.1" is not cut at "192"), plus an RFC 4007 zone ("%eth0"); node:net decides.
const IPV6 =
  /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?(?:%[0-9A-Za-z_.-]{1,15})?(?![\w:]|\.\d)/g;
// "version 1.2.3.4" and "v1.2.3.4" are software versions, not hosts.
const VERSION_BEFORE = /(?:\bv|\bversion|\bver\.?|\brelease|\bbuild|\bfirmware|\bupdate to)\s*$/i;

function octet(part: string | undefined): boolean {
  if (part === undefined || (part.length > 1 && part.startsWith("0"))) return false;
  return Number(part) <= 255;
}

/**
 * Short compressed forms read as code ("a::b", "Foo::Bar" scope paths) or typos, so an address
 * needs a group of three or more hex digits ("fe80::1", "2001:db8::") or is the loopback "::1".
 */
function looksLikeHost(value: string): boolean {
  const address = value.split("%")[0] ?? "";
  return address === "::1" || /[0-9A-Fa-f]{3}/.test(address);
}

export const ipRecognizer: Recognizer = {
  entities: ["IP_ADDRESS"],
  find(text, out) {
    for (const m of text.matchAll(IPV4)) {
      if (!(octet(m[1]) && octet(m[2]) && octet(m[3]) && octet(m[4]))) continue;
      if (VERSION_BEFORE.test(text.slice(Math.max(0, m.index - 16), m.index))) continue;
      out.push({ start: m.index, end: m.index + m[0].length, label: "IP_ADDRESS" });
    }
    if (!text.includes(":")) return;
    for (const m of text.matchAll(IPV6)) {
      const value = m[0];
      // Times ("14:02:26") parse as nothing; node:net accepts zones, which the regex kept short.
      if (!looksLikeHost(value) || !isIPv6(value)) continue;
      out.push({ start: m.index, end: m.index + value.length, label: "IP_ADDRESS" });
    }
  },
};
