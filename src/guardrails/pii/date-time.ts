import type { PiiSpan, Recognizer } from "./recognizer.js";

const MONTH =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
// Hyphenated dates are often upper case ("12-JAN-2024", as Oracle prints them).
const MON = `(?:${MONTH}|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEPT?|OCT|NOV|DEC)`;
const DAY = "(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?";
// A clock time after a date; ISO 8601 seconds' fractions and zones (Z, +01:00, -0500) included.
const TIME =
  "(?:[T ,]+(?:at )?(?:[01]?\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?(?:\\s?[AaPp]\\.?[Mm]\\.?|Z|[+-](?:[01]\\d|2[0-3])(?::?[0-5]\\d)?)?)?";
// Words after which "3/14" is a day of a month rather than a fraction or a score.
const DATE_CUE =
  "(?:on|by|due|until|till|since|from|before|after|through|thru|starting|ending|dated|(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs?)?|Fri|Sat(?:ur)?|Sun)(?:day)?\\.?,?)";

interface DatePattern {
  readonly pattern: RegExp;
  readonly accept?: (value: string) => boolean;
}

const PATTERNS: readonly DatePattern[] = [
  // ISO 8601 dates and date-times: 1997-02-21, 1997-02-21 14:02:26, 2024-03-14T09:30:00Z.
  { pattern: new RegExp(`\\b\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])${TIME}\\b`, "g") },
  // Numeric day/month/year in either order: 3/23/1940, 23.03.1940, 03-23-40. Not followed by more
  // digits, even after dots ("1.2.34.5" is a version): `\\.*\\d` is the same test as `[\\d.]*\\d`,
  // which ran to the end of a long "11.11.11…" from every start.
  {
    pattern: new RegExp(`\\b\\d{1,2}([/.-])\\d{1,2}\\1(?:\\d{4}|\\d{2})${TIME}(?!\\.*\\d)`, "g"),
    accept: plausibleNumeric,
  },
  // Month names: March 3, 1990 / Mar 3rd / 3 March 1990 / 3rd of March / March 1990.
  { pattern: new RegExp(`\\b${MONTH}\\.? ${DAY}(?:,? \\d{4})?${TIME}\\b`, "g") },
  { pattern: new RegExp(`\\b${DAY} (?:of )?${MONTH}\\.?(?:,? \\d{4})?\\b`, "g") },
  { pattern: new RegExp(`\\b${MONTH}\\.?,? (?:1[89]|20)\\d{2}\\b`, "g") },
  // Hyphenated or slashed month names: 12-Jan-2024, 12-JAN-24, Jan-12-2024, 10/Oct/2000.
  { pattern: new RegExp(`\\b${DAY}([-/])${MON}\\1(?:\\d{4}|\\d{2})${TIME}(?![\\w/-])`, "g") },
  { pattern: new RegExp(`\\b${MON}([-/])${DAY}\\1\\d{4}${TIME}(?![\\w/-])`, "g") },
  // Month/year: 03/2024, 3/2024 (a 19xx or 20xx year); not part of a longer slashed or dotted run.
  { pattern: /(?<![\d/.-])\b(?:0?[1-9]|1[0-2])\/(?:19|20)\d{2}(?![\d/]|[.-]\d)/g },
  // Month/day (3/14) only after a date word ("on 3/14", "due Fri, 3/14"), and not a fraction.
  {
    pattern: new RegExp(
      `(?<=\\b${DATE_CUE} )(?:0?[1-9]|1[0-2])/(?:[12]\\d|3[01]|0?[1-9])${TIME}(?![\\d/]|[.-]\\d)`,
      "gi",
    ),
    accept: notFraction,
  },
  // Weekday names and clock times with am/pm.
  { pattern: /\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b/g },
  { pattern: /\b(?:[01]?\d|2[0-3]):[0-5]\d\s?[AaPp]\.?[Mm]\b\.?/g },
];

function plausibleNumeric(value: string): boolean {
  const parts = value.split(/[/.\- T,]/);
  const a = Number(parts[0]);
  const b = Number(parts[1]);
  // Month/day in either order; a "12.5.3" version string is ruled out by the year part's length.
  return a >= 1 && b >= 1 && ((a <= 12 && b <= 31) || (b <= 12 && a <= 31));
}

/** "by 1/2", "on 3/4 of the nodes", "cut 3/16 inch": proper fractions over 2, 3, 4, 8 or 16. */
function notFraction(value: string): boolean {
  const [month = "", day = ""] = value.split(/[/ ,T]/);
  const over = Number(day);
  return !(Number(month) < over && [2, 3, 4, 8, 16].includes(over));
}

export const dateTimeRecognizer: Recognizer = {
  entities: ["DATE_TIME"],
  find(text, out: PiiSpan[]) {
    for (const { pattern, accept } of PATTERNS) {
      for (const m of text.matchAll(pattern)) {
        if (accept && !accept(m[0])) continue;
        out.push({ start: m.index, end: m.index + m[0].length, label: "DATE_TIME" });
      }
    }
  },
};
