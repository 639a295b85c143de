import { luhnValid } from "./checksums.js";
import { hasContext, isIsolated, type Recognizer } from "./recognizer.js";

// 13–19 digits, optionally in groups split by single spaces or dashes.
const CANDIDATE = /\d(?:[ -]?\d){12,18}/g;
const DIGIT_RUN = /\d{4}[ -]?\d{4}[ -]?\d{4}/;
const CARD_CONTEXT =
  /\b(?:card|credit|debit|visa|master ?card|amex|american express|discover|diners|jcb|maestro|cc|payment|pay with|charge|billing|cvv|expir)/i;
const OTHER_CONTEXT =
  /\b(?:order|invoice|tracking|shipment|parcel|reference|ref|account|acct|ticket|serial|imei|id|booking|confirmation|transaction)\b/i;

/**
 * Issuer identification number ranges of the major networks (ISO/IEC 7812;
 * https://en.wikipedia.org/wiki/Payment_card_number#Issuer_identification_number_(IIN)).
 */
function knownIssuer(d: string): boolean {
  const two = Number(d.slice(0, 2));
  const three = Number(d.slice(0, 3));
  const four = Number(d.slice(0, 4));
  const n = d.length;
  if (d[0] === "4") return n === 13 || n === 16 || n === 19; // Visa
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return n === 16; // Mastercard
  if (two === 34 || two === 37) return n === 15; // American Express
  if (four === 6011 || two === 65 || (three >= 644 && three <= 649)) return n >= 16; // Discover
  if (four >= 3528 && four <= 3589) return n >= 16; // JCB
  if ((three >= 300 && three <= 305) || two === 36 || two === 38) return n >= 14; // Diners Club
  if (two === 62) return n >= 16; // UnionPay
  return (two === 50 || (two >= 56 && two <= 69)) && n >= 12; // Maestro
}

export const creditCardRecognizer: Recognizer = {
  entities: ["CREDIT_CARD"],
  find(text, out) {
    if (!DIGIT_RUN.test(text)) return;
    for (const m of text.matchAll(CANDIDATE)) {
      const start = m.index;
      const end = start + m[0].length;
      if (!isIsolated(text, start, end)) continue;
      const digits = m[0].replace(/[ -]/g, "");
      if (digits.length < 13 || !luhnValid(digits) || /^(\d)\1+$/.test(digits)) continue;
      const cardWords = hasContext(text, start, end, CARD_CONTEXT);
      // A Luhn-valid number is a card when its issuer prefix is real and nothing says it is an order
      // number, or when the text calls it a card.
      if (cardWords || (knownIssuer(digits) && !hasContext(text, start, end, OTHER_CONTEXT, 32))) {
        out.push({ start, end, label: "CREDIT_CARD" });
      }
    }
  },
};
