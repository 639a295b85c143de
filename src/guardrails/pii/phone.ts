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
  /\b(?:phone|phones|tel|telephone|call|calling|called|mobile|cell|cellphone|fax|office|home|work|contact|reach|dial|number|no\.|whatsapp|sms|text me|hotline|landline|ring)\b/i;

function sane(value: string): boolean {
  // One separator at a time, balanced parentheses.
  if (/[ .-]{2,}/.test(value.replace(/ - /g, "-"))) return false;
  const open = value.split("(").length;
  return open === value.split(")").length && open <= 2;
}

export const phoneRecognizer: Recognizer = {
  entities: ["PHONE_NUMBER"],
  find(text, out) {
    for (const m of text.matchAll(CANDIDATE)) {
      const value = m[0].trim();
      const digits = value.replace(/\D/g, "");
      if (digits.length < 7 || digits.length > 15 || !sane(value) || DATE_SHAPE.test(value)) continue;
      const start = m.index;
      let end = start + value.length;
      let ok = false;
      if (value.startsWith("+") || value.startsWith("00")) {
        // International form: let libphonenumber-js judge it against the country's numbering plan.
        const parsed = parsePhoneNumberFromString(`+${digits.replace(/^00/, "")}`);
        ok = parsed?.isPossible() === true || NANP.test(value);
      } else {
        ok =
          NANP.test(value) ||
          (/\D/.test(value) || digits.length >= 9 ? hasContext(text, start, end, CONTEXT) : false);
      }
      if (!ok) continue;
      const ext = EXTENSION.exec(text.slice(end));
      if (ext) end += ext[0].length;
      out.push({ start, end, label: "PHONE_NUMBER" });
    }
  },
};
