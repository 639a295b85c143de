import type { PiiSpan, Recognizer } from "./recognizer.js";

const MONTH =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
const DAY = "(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?";
const TIME = "(?:[T ,]+(?:at )?(?:[01]?\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d)?(?:\\s?[AaPp]\\.?[Mm]\\.?)?)?";
const PATTERNS: readonly RegExp[] = [
  // ISO 8601 dates and date-times: 1997-02-21, 1997-02-21 14:02:26, 1997-02-21T14:02.
  new RegExp(`\\b\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])${TIME}\\b`, "g"),
  // Numeric day/month/year in either order: 3/23/1940, 23.03.1940, 03-23-40. Not followed by more
  // digits, even after dots ("1.2.34.5" is a version): `\\.*\\d` is the same test as `[\\d.]*\\d`,
  // which ran to the end of a long "11.11.11…" from every start.
  new RegExp(`\\b\\d{1,2}([/.-])\\d{1,2}\\1(?:\\d{4}|\\d{2})${TIME}(?!\\.*\\d)`, "g"),
  // Month names: March 3, 1990 / Mar 3rd / 3 March 1990 / 3rd of March / March 1990.
  new RegExp(`\\b${MONTH}\\.? ${DAY}(?:,? \\d{4})?${TIME}\\b`, "g"),
  new RegExp(`\\b${DAY} (?:of )?${MONTH}\\.?(?:,? \\d{4})?\\b`, "g"),
  new RegExp(`\\b${MONTH}\\.?,? (?:1[89]|20)\\d{2}\\b`, "g"),
  // Weekday names and clock times with am/pm.
  /\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b/g,
  /\b(?:[01]?\d|2[0-3]):[0-5]\d\s?[AaPp]\.?[Mm]\b\.?/g,
];

function plausibleNumeric(value: string): boolean {
  const parts = value.split(/[/.\- T,]/);
  const a = Number(parts[0]);
  const b = Number(parts[1]);
  // Month/day in either order; a "12.5.3" version string is ruled out by the year part's length.
  return a >= 1 && b >= 1 && ((a <= 12 && b <= 31) || (b <= 12 && a <= 31));
}

export const dateTimeRecognizer: Recognizer = {
  entities: ["DATE_TIME"],
  find(text, out: PiiSpan[]) {
    for (const [i, pattern] of PATTERNS.entries()) {
      for (const m of text.matchAll(pattern)) {
        if (i === 1 && !plausibleNumeric(m[0])) continue;
        out.push({ start: m.index, end: m.index + m[0].length, label: "DATE_TIME" });
      }
    }
  },
};
