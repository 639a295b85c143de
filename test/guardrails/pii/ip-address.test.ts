import { describe, expect, it } from "vitest";
import { piiFound } from "../../helpers/pii-found.js";

const cases: { text: string; expected: string[] }[] = [
  // IPv6 shorthand: loopback, link-local, a prefix, an IPv4-mapped tail, a zone.
  { text: "the dev server binds ::1 only", expected: ["::1"] },
  { text: "curl http://[::1]:8080/health", expected: ["::1"] },
  { text: "gateway fe80::1ff:fe23:4567:890a on the lab VLAN", expected: ["fe80::1ff:fe23:4567:890a"] },
  { text: "allocate from 2001:db8:: please", expected: ["2001:db8::"] },
  { text: "the prefix is 2001:db8::.", expected: ["2001:db8::"] },
  { text: "mapped client ::ffff:192.0.2.1 connected", expected: ["::ffff:192.0.2.1"] },
  { text: "ping fe80::7a2b:cff:fe11:2a3b%eth0 -c 3", expected: ["fe80::7a2b:cff:fe11:2a3b%eth0"] },
  { text: "ping6 fe80::1%25en0 works", expected: ["fe80::1%25en0"] },
  // Clock times, C++/Rust paths and MAC addresses are not hosts.
  { text: "stand-up at 12:30 and again at 16:45:10", expected: [] },
  { text: "call a::b or std::vector or Foo::1 here", expected: [] },
  { text: "nic 00:1A:2B:3C:4D:5E is new", expected: [] },
  // A dotted quad inside a longer dotted run is a version or an OID.
  { text: "bump the lib to 1.2.3.4.5 today", expected: [] },
  { text: "build 10.0.0.1.2 fixed it", expected: [] },
  { text: "oid 1.3.6.1.4.1.311 is Microsoft's", expected: [] },
  { text: "the host is 10.0.0.12.", expected: ["10.0.0.12"] },
];

describe("pii: IP addresses", () => {
  it.each(cases)("$text", ({ text, expected }) => {
    expect(piiFound(text, "IP_ADDRESS")).toEqual(expected.map((e) => `IP_ADDRESS:${e}`));
  });
});
