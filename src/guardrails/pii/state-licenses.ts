/**
 * Driver licence number layouts of the US states that put letters in them, from NTSI's table of
 * state formats (https://ntsi.com/drivers-license-format/). Digits-only layouts (Texas' 8 digits,
 * Pennsylvania's 8, …) are left out: they are ordinary numbers unless the text says "licence", and
 * so are letter layouts with fewer than six digits ("AB1234" is any product code), New York's eight
 * letters (a word) and Washington's 12 characters of letters, digits and "*" (any upper-case code).
 */
const LAYOUTS: Readonly<Record<string, { readonly name: string; readonly layout: string }>> = {
  AZ: { name: "Arizona", layout: "[A-Z]\\d{8}" },
  CA: { name: "California", layout: "[A-Z]\\d{7}" },
  CO: { name: "Colorado", layout: "[A-Z]\\d{6}" },
  FL: { name: "Florida", layout: "[A-Z]\\d{12}" },
  HI: { name: "Hawaii", layout: "[A-Z]\\d{8}" },
  ID: { name: "Idaho", layout: "[A-Z]{2}\\d{6}[A-Z]" },
  IL: { name: "Illinois", layout: "[A-Z]\\d{11,12}" },
  IN: { name: "Indiana", layout: "[A-Z]\\d{9}" },
  IA: { name: "Iowa", layout: "\\d{3}[A-Z]{2}\\d{4}" },
  KS: { name: "Kansas", layout: "[A-Z]\\d{8}" },
  KY: { name: "Kentucky", layout: "[A-Z]\\d{8,9}" },
  ME: { name: "Maine", layout: "\\d{7}[A-Z]" },
  MD: { name: "Maryland", layout: "[A-Z]\\d{12}" },
  MA: { name: "Massachusetts", layout: "[A-Z]\\d{8}" },
  MI: { name: "Michigan", layout: "[A-Z]\\d{10}|[A-Z]\\d{12}" },
  MN: { name: "Minnesota", layout: "[A-Z]\\d{12}" },
  MO: { name: "Missouri", layout: "[A-Z]\\d{6,9}|[A-Z]\\d{6}R|\\d{8}[A-Z]{2}|\\d{9}[A-Z]" },
  MT: { name: "Montana", layout: "[A-Z]\\d{8}" },
  NE: { name: "Nebraska", layout: "[A-Z]\\d{6,8}" },
  NV: { name: "Nevada", layout: "X\\d{8}" },
  NH: { name: "New Hampshire", layout: "\\d{2}[A-Z]{3}\\d{5}" },
  NJ: { name: "New Jersey", layout: "[A-Z]\\d{14}" },
  NY: { name: "New York", layout: "[A-Z]\\d{7}|[A-Z]\\d{18}" },
  ND: { name: "North Dakota", layout: "[A-Z]{3}\\d{6}" },
  OH: { name: "Ohio", layout: "[A-Z]\\d{6,8}|[A-Z]{2}\\d{6,7}" },
  OK: { name: "Oklahoma", layout: "[A-Z]\\d{9}" },
  RI: { name: "Rhode Island", layout: "[A-Z]\\d{6}" },
  VT: { name: "Vermont", layout: "\\d{7}A" },
  VA: { name: "Virginia", layout: "[A-Z]\\d{8,11}" },
  WV: { name: "West Virginia", layout: "[A-Z]{1,2}\\d{6}" },
  WI: { name: "Wisconsin", layout: "[A-Z]\\d{13}" },
};

const BY_NAME = new Map(Object.entries(LAYOUTS).map(([code, s]) => [s.name.toLowerCase(), code]));
const FITS = new Map(Object.entries(LAYOUTS).map(([code, s]) => [code, new RegExp(`^(?:${s.layout})$`)]));
// Longer names first, so "West Virginia" is not read as "Virginia". Postal codes only in capitals,
// and not those that are words even in capitals ("OK", "HI"): those states need their names.
const NAMES = [...BY_NAME.keys()].sort((a, b) => b.length - a.length).join("|");
const WORD_CODES = new Set(["HI", "IN", "ME", "OH", "OK"]);
const CODES = Object.keys(LAYOUTS).filter((code) => !WORD_CODES.has(code));
const STATE = new RegExp(
  `\\b(?:(?<name>${NAMES.replace(/ /g, "\\s+")})|(?<code>${CODES.join("|")}))\\b`,
  "gi",
);

/** The states a window of text names: full names in any case, postal codes in capitals. */
function statesIn(window: string): string[] {
  const codes: string[] = [];
  for (const m of window.matchAll(STATE)) {
    const { name, code } = m.groups ?? {};
    if (name !== undefined) codes.push(BY_NAME.get(name.toLowerCase().replace(/\s+/g, " ")) ?? "");
    else if (code !== undefined && code === code.toUpperCase()) codes.push(code);
  }
  return codes;
}

/** Whether any state named in the text is one; the cheap test before looking at each token. */
export function namesAState(text: string): boolean {
  return statesIn(text).length > 0;
}

/** True when a state named just before the token (or just after it) issues numbers of its layout. */
export function fitsNamedState(text: string, start: number, end: number): boolean {
  const token = text.slice(start, end);
  const near = statesIn(`${text.slice(Math.max(0, start - 40), start)} ${text.slice(end, end + 24)}`);
  return near.some((code) => FITS.get(code)?.test(token) === true);
}
