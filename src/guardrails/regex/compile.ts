import { RE2JS, RE2JSException, RE2JSSyntaxException } from "re2js";

export type RegexFlag = "i" | "m" | "s";

const FLAG_BITS: Record<RegexFlag, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
};

const SYNTAX = "RE2 syntax, https://github.com/google/re2/wiki/Syntax";
const LINEAR = `patterns run on a linear-time engine (${SYNTAX})`;

// Constructs a backtracking engine (JavaScript, PCRE) accepts and RE2 rejects by design, since
// each can take exponential time: recognised from RE2's error so the message says what and why.
const UNSUPPORTED: readonly { test: RegExp; what: string }[] = [
  { test: /^\(\?=/, what: "lookahead (?=…)" },
  { test: /^\(\?!/, what: "negative lookahead (?!…)" },
  { test: /^\(\?<=/, what: "lookbehind (?<=…)" },
  { test: /^\(\?<!/, what: "negative lookbehind (?<!…)" },
  { test: /^\(\?>/, what: "atomic group (?>…)" },
  { test: /^\\[1-9]/, what: "backreference \\1…\\9" },
  { test: /^\\k/, what: "named backreference \\k<…>" },
  { test: /^[^(\\]*[*+?}]\+$/, what: "possessive quantifier (*+, ++, ?+, {n}+)" },
];

/** RE2's parse error as one line for a config message. */
export function explainRegexError(error: unknown): string {
  if (error instanceof RE2JSSyntaxException) {
    const input = error.input ?? "";
    const known = UNSUPPORTED.find(({ test }) => test.test(input));
    if (known) return `${known.what} is not supported: ${LINEAR}`;
    const limit = error.error === "invalid repeat count" ? " (repeat counts go up to 1000)" : "";
    return `invalid regular expression: ${error.error}${input ? ` at \`${input}\`` : ""}${limit} (${SYNTAX})`;
  }
  if (error instanceof RE2JSException) return `invalid regular expression: ${error.message}`;
  return `invalid regular expression: ${String(error)}`;
}

/** Compiles with RE2 or throws an RE2JS exception; `explainRegexError` turns it into a message. */
export function compileRegex(source: string, flags: readonly RegexFlag[] = []): RE2JS {
  return RE2JS.compile(
    source,
    flags.reduce((bits, flag) => bits | FLAG_BITS[flag], 0),
  );
}
