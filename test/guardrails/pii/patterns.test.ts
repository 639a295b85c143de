import { describe, expect, it } from "vitest";
import { detectPii } from "../../../src/guardrails/pii/index.js";

/** Entity types found in `text`, in text order. */
function found(text: string): string[] {
  return detectPii(text).map((s) => `${s.label}:${text.slice(s.start, s.end)}`);
}

const cases: { text: string; expected: string[] }[] = [
  // E-mail and URL
  { text: "write to jane.doe+x@example.co.uk today", expected: ["EMAIL_ADDRESS:jane.doe+x@example.co.uk"] },
  { text: "see https://example.com/a?b=1.", expected: ["URL:https://example.com/a?b=1"] },
  { text: "run main.py and index.js", expected: [] },
  // Phone numbers
  { text: "call +44 20 7946 0958 now", expected: ["PHONE_NUMBER:+44 20 7946 0958"] },
  { text: "my cell is (415) 555-2671", expected: ["PHONE_NUMBER:(415) 555-2671"] },
  { text: "phone: 06-24312407", expected: ["PHONE_NUMBER:06-24312407"] },
  { text: "we sold 1234567 units", expected: [] },
  // Credit cards: Luhn, issuer prefix, order-number context
  { text: "card 4111 1111 1111 1111 exp 12/29", expected: ["CREDIT_CARD:4111 1111 1111 1111"] },
  { text: "pay with 5500-0000-0000-0004", expected: ["CREDIT_CARD:5500-0000-0000-0004"] },
  { text: "card 4111 1111 1111 1112", expected: [] },
  { text: "order number 4111111111111111 shipped", expected: [] },
  { text: "order 1234567812345670 shipped", expected: [] },
  // IBAN: per-country length and mod-97
  { text: "IBAN GB82 WEST 1234 5698 7654 32 please", expected: ["IBAN_CODE:GB82 WEST 1234 5698 7654 32"] },
  { text: "to DE89370400440532013000.", expected: ["IBAN_CODE:DE89370400440532013000"] },
  { text: "IBAN GB82 WEST 1234 5698 7654 33", expected: [] },
  // US SSN
  { text: "SSN 123-45-6788", expected: ["US_SSN:123-45-6788"] },
  { text: "my social security number is 078051121", expected: ["US_SSN:078051121"] },
  { text: "id 000-12-3456 or 666-12-3456 or 912-12-3456", expected: [] },
  { text: "ssn 123-00-4567 or 123-45-0000", expected: [] },
  { text: "ref 078051121", expected: [] },
  // IP addresses
  { text: "host 192.168.1.20 is down", expected: ["IP_ADDRESS:192.168.1.20"] },
  { text: "ping 999.1.1.1", expected: [] },
  { text: "upgrade to version 1.2.3.4 now", expected: [] },
  {
    text: "v6 2001:db8::8a2e:370:7334 and fe80::1ff:fe23:4567:890a",
    expected: ["IP_ADDRESS:2001:db8::8a2e:370:7334", "IP_ADDRESS:fe80::1ff:fe23:4567:890a"],
  },
  { text: "at 14:02:26 sharp", expected: [] },
  // Bitcoin
  {
    text: "send to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
    expected: ["CRYPTO:1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
  },
  {
    text: "p2sh 3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy ok",
    expected: ["CRYPTO:3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"],
  },
  {
    text: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    expected: ["CRYPTO:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"],
  },
  { text: "send to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", expected: [] },
  { text: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdz", expected: [] },
  // Dates
  { text: "born 3/23/1940 in spring", expected: ["DATE_TIME:3/23/1940"] },
  { text: "DOB: March 3, 1990", expected: ["DATE_TIME:March 3, 1990"] },
  { text: "at 1997-02-21 14:02:26", expected: ["DATE_TIME:1997-02-21 14:02:26"] },
  // Secrets
  { text: "key AKIAIOSFODNN7EXAMPLE", expected: ["AWS_ACCESS_KEY:AKIAIOSFODNN7EXAMPLE"] },
  {
    text: "-----BEGIN RSA PRIVATE KEY----- MIIEpAIBAAKCAQEA -----END RSA PRIVATE KEY-----",
    expected: ["PRIVATE_KEY:-----BEGIN RSA PRIVATE KEY----- MIIEpAIBAAKCAQEA -----END RSA PRIVATE KEY-----"],
  },
  {
    text: "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    expected: ["API_KEY:ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
  },
  { text: "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", expected: ["API_KEY:sk_live_4eC39HqLyjWDarjtT1zdp7dc"] },
  {
    text: "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    expected: ["API_KEY:AIzaSyA1234567890abcdefghijklmnopqrstuv"],
  },
  {
    text: "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    expected: [
      "API_KEY:eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ],
  },
  // US driver licence only with its words
  { text: "driver's license A5631933", expected: ["US_DRIVER_LICENSE:A5631933"] },
  { text: "plain text without anything", expected: [] },
];

describe("pii pattern recognisers", () => {
  it.each(cases)("$text", ({ text, expected }) => {
    expect(found(text)).toEqual(expected);
  });
});
