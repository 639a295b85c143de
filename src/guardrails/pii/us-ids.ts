import { hasContext, isIsolated, type Recognizer } from "./recognizer.js";
import { fitsNamedState, namesAState } from "./state-licenses.js";

const SSN = /\b(\d{3})([- .]?)(\d{2})\2(\d{4})\b/g;
// "ss#" ends in a non-word character, so it sits outside the trailing \b.
const SSN_CONTEXT = /\b(?:(?:ssns?|social security|social sec|soc\.? sec|ss no|taxpayer|tin)\b|ss#)/i;

/**
 * SSA rules for numbers that are never issued
 * (https://www.ssa.gov/employer/randomization.html, https://www.ssa.gov/history/ssn/geocard.html):
 * area 000, 666 or 900–999, group 00, serial 0000; plus well-known placeholders.
 */
function validSsn(area: string, group: string, serial: string): boolean {
  if (area === "000" || area === "666" || area.startsWith("9")) return false;
  if (group === "00" || serial === "0000") return false;
  const all = area + group + serial;
  return all !== "123456789" && !/^(\d)\1{8}$/.test(all);
}

/** Part of a longer dashed or dotted number (a phone, a part number), or spaced digits read aloud. */
function insideLongerNumber(text: string, start: number, end: number, sep: string): boolean {
  const before = text.slice(Math.max(0, start - 2), start);
  const after = text.slice(end, end + 2);
  if (/\d[-.]$/.test(before) || /^[-.]\d/.test(after)) return true;
  return sep === " " && (/\d $/.test(before) || /^ \d/.test(after));
}

// US driver licence numbers vary by state (1 letter + 4–14 digits, 7–9 digits, …) and carry no
// checksum: any such token next to words that say what it is, like Presidio's US_DRIVER_LICENSE
// recogniser; without those words, only a layout with letters that a state named beside it issues.
const TOKEN = /\b[A-Z\d]{6,19}\b/g;
const LICENSE = /^(?=.{6,14}$)[A-Z]{0,2}\d{5,13}[A-Z]{0,2}$/;
const LICENSE_CONTEXT = /\b(?:driver'?s?|driving|licen[cs]e|dl|dl#|dln)\b/i;
// A state beside an order or a flight number does not make it a licence.
const OTHER_CONTEXT =
  /\b(?:order|invoice|tracking|shipment|parcel|ref|reference|ticket|serial|sku|part|model|flight|booking|confirmation|transaction|policy|claim|account)\b/i;

export const usIdRecognizer: Recognizer = {
  entities: ["US_SSN", "US_DRIVER_LICENSE"],
  find(text, out) {
    for (const m of text.matchAll(SSN)) {
      const [value, area = "", sep = "", group = "", serial = ""] = m;
      if (!validSsn(area, group, serial)) continue;
      const end = m.index + value.length;
      if (!isIsolated(text, m.index, end) || insideLongerNumber(text, m.index, end, sep)) continue;
      // The dashed and dotted 3-2-4 forms stand on their own (no phone, date or version is written
      // so); bare 9 digits or spaced groups (a Berlin "030 12 3456") need SSN words.
      if (sep === "-" || sep === "." || hasContext(text, m.index, end, SSN_CONTEXT)) {
        out.push({ start: m.index, end, label: "US_SSN" });
      }
    }
    const words = LICENSE_CONTEXT.test(text);
    if (!words && !namesAState(text)) return;
    for (const m of text.matchAll(TOKEN)) {
      const start = m.index;
      const end = start + m[0].length;
      const byWords = words && LICENSE.test(m[0]) && hasContext(text, start, end, LICENSE_CONTEXT, 40);
      const byState =
        !byWords &&
        /[A-Z]/.test(m[0]) &&
        fitsNamedState(text, start, end) &&
        !hasContext(text, start, end, OTHER_CONTEXT, 40);
      if (byWords || byState) out.push({ start, end, label: "US_DRIVER_LICENSE" });
    }
  },
};
