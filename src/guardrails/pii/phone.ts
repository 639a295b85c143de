import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { hasContext, type Recognizer } from "./recognizer.js";

// A digit run with the separators phone numbers are written with; structure is judged in code so the
// regex stays linear (no nested quantifiers over digit groups).
const CANDIDATE = /(?<![\w+.\-/])(?:\+|\(\d)[\d().\- ]{5,24}\d|(?<![\w+.\-/])\d[\d().\- ]{5,24}\d/g;
const EXTENSION = /^\s?(?:x|ext\.?|extension|#)\s?\d{1,6}\b/i;
// North American Numbering Plan layouts (optionally +1 / 001 / 1-), always with separators.
const NANP = /^(?:(?:\+?1|001)[-. ]?)?(?:\(\d{3}\) ?|\d{3}[-. ])\d{3}[-. ]\d{4}$/;
const DATE_SHAPE = /^\d{1,4}[-./]\d{1,2}[-./]\d{1,4}$/;
const CONTEXT =
  /\b(?:phone|phones|tel|telephone|call|calling|called|mobile|cell|cellphone|fax|office|home|work|contact|reach|dial|number|no\.|whatsapp|sms|text me|hotline|landline|ring|answering|reach (?:me|us|you|him|her|them) at)\b/i;

// A bare digit run named as some other number ("driver's license number is 425700624").
const OTHER_NUMBER =
  /\b(?:licen[cs]e|passport|account|acct|ssn|social security|id|policy|member|order|invoice|tracking)\b[^.\d]{0,20}$/i;

function sane(value: string): boolean {
  // One separator at a time, balanced parentheses.
  if (/[ .-]{2,}/.test(value.replace(/ - /g, "-"))) return false;
  const open = value.split("(").length;
  return open === value.split(")").length && open <= 2;
}

// libphonenumber-js takes 3–25 µs a number (+44 is the slowest): a message of nothing but "+44 …"
// numbers would spend 150 ms on them. Each message asks it about this many distinct numbers at
// most; past that an international number is taken as possible, which errs on the side of flagging.
const MAX_LOOKUPS = 200;

/** What libphonenumber-js said about each international number of one message. */
type Lookups = Map<string, boolean>;

function possibleInternational(digits: string, lookups: Lookups): boolean {
  let possible = lookups.get(digits);
  if (possible === undefined) {
    if (lookups.size >= MAX_LOOKUPS) return true;
    possible = parsePhoneNumberFromString(`+${digits}`)?.isPossible() === true;
    lookups.set(digits, possible);
  }
  return possible;
}

/** The end of a phone number written as `value` at `start`, or -1 when it is not one. */
function judge(text: string, start: number, value: string, lookups: Lookups): number {
  const digits = value.replace(/\D/g, "");
  if (digits.length < 7 || digits.length > 15 || !sane(value) || DATE_SHAPE.test(value)) return -1;
  if (digits === value && OTHER_NUMBER.test(text.slice(Math.max(0, start - 40), start))) return -1;
  let end = start + value.length;
  let ok = false;
  if (value.startsWith("+") || value.startsWith("00")) {
    // International form: let libphonenumber-js judge it against the country's numbering plan.
    ok = possibleInternational(digits.replace(/^00/, ""), lookups) || NANP.test(value);
  } else {
    ok =
      NANP.test(value) ||
      (/\D/.test(value) || digits.length >= 9 ? hasContext(text, start, end, CONTEXT) : false);
  }
  if (!ok) return -1;
  const ext = EXTENSION.exec(text.slice(end));
  if (ext) end += ext[0].length;
  return end;
}

export const phoneRecognizer: Recognizer = {
  entities: ["PHONE_NUMBER"],
  find(text, out) {
    const lookups: Lookups = new Map();
    for (const m of text.matchAll(CANDIDATE)) {
      const value = m[0].trim();
      let end = judge(text, m.index, value, lookups);
      let start = m.index;
      // "Tanzania 71366 078 6657 2626 office": a postcode glued to the number by a space.
      const lead = /^\d{4,6} (?=\d)/.exec(value);
      if (end < 0 && lead) {
        start += lead[0].length;
        end = judge(text, start, value.slice(lead[0].length), lookups);
      }
      if (end >= 0) out.push({ start, end, label: "PHONE_NUMBER" });
    }
  },
};
