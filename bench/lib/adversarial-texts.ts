/**
 * Hostile shapes of text for the adversarial bench and the denial-of-service tests: the texts a
 * 2026 probe used to stall the server with one request, and other shapes that are cheap to send
 * and may be expensive to check (long tokens, long lines, emoji and ZWJ sequences, mixed scripts,
 * deep nesting, repeated separators). Each is built at `size` characters (default the server's
 * 100,000-character limit) before normalisation.
 */
const ENGLISH =
  "The committee reviewed the quarterly budget on Tuesday and asked the finance team for a clearer " +
  "breakdown of travel costs. Several members wanted to know why the contractor line had grown, and " +
  "the chair promised an answer before the next meeting. ";

const repeat = (unit: string, size: number): string =>
  unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** Repeats whole units (never cuts a surrogate pair or a ZWJ sequence) up to `size` UTF-16 units. */
const repeatWhole = (unit: string, size: number): string =>
  unit.repeat(Math.max(1, Math.floor(size / unit.length)));

export interface HostileText {
  readonly name: string;
  readonly text: string;
  /** What it attacks. */
  readonly why: string;
}

export function hostileTexts(size = 100_000): HostileText[] {
  return [
    { name: "plain English", text: repeat(ENGLISH, size), why: "the baseline: ordinary prose at the limit" },
    { name: '"1" × n', text: "1".repeat(size), why: "one 100 KB word of digits (issue 9: 28.7 s)" },
    { name: '"a@b." × n', text: repeat("a@b.", size), why: "e-mail-like run, no spaces (38.7 s)" },
    { name: '"a" + U+0301 × n', text: `a${"\u0301".repeat(size - 1)}`, why: "combining marks (61.8 s)" },
    {
      name: "U+FDFA × n/5",
      text: "\ufdfa".repeat(Math.floor(size / 5)),
      why: "NFKC expands it 18× (47.8 s)",
    },
    { name: '"a" × n + "!"', text: `${"a".repeat(size - 1)}!`, why: "one long word (13.6 s)" },
    { name: "base64 run", text: repeat("QmFzZTY0IGRhdGEgd2l0aG91dCBzcGFjZXM/", size), why: "a long token" },
    {
      name: "one long line of words",
      text: repeat("lorem ipsum dolor sit amet consectetur ", size),
      why: "no sentence ends",
    },
    {
      name: "emoji ZWJ families",
      text: repeatWhole("👩‍👩‍👧‍👦", size),
      why: "ZWJ sequences (joiners are removed)",
    },
    {
      name: "mixed scripts",
      text: repeat("Привет мир 你好世界 مرحبا שלום hello नमस्ते ", size),
      why: "many scripts",
    },
    { name: "nested brackets", text: "(".repeat(size / 2) + ")".repeat(size / 2), why: "deep nesting" },
    {
      name: "period then brackets",
      text: `.${")".repeat(size - 1)}`,
      why: "closing marks after a sentence end",
    },
    { name: "periods", text: ".".repeat(size), why: "a repeated separator" },
    { name: "pipes and dots", text: repeat("-|.", size), why: "repeated separators" },
    { name: "short sentences", text: repeat("Go. ", size), why: "tens of thousands of sentences" },
    { name: "newlines", text: repeat("a\n", size), why: "tens of thousands of lines" },
    {
      name: "digits and dashes",
      text: repeat("4111-1111-1111-1111 ", size),
      why: "card-like numbers for PII",
    },
    { name: "e-mails", text: repeat("jane.doe@example.com ", size), why: "many PII matches" },
    {
      name: "zalgo",
      text: repeat("z\u0336\u0317\u0353a\u0334\u0300l\u0335g\u0337o\u0338 ", size),
      why: "marks on letters",
    },
  ];
}
