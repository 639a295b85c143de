import { luhnValid } from "./checksums.js";
import { hasContext, isIsolated, type Recognizer } from "./recognizer.js";

// A run of digit groups split by single spaces or dashes. Cards are cut out of it on group
// boundaries, so "4111111111111111 5500000000000004" is two cards, not one 19-digit candidate.
const RUN = /\d+(?:[ -]\d+)*/g;
const CARD_CONTEXT =
  /\b(?:card|credit|debit|visa|master ?card|amex|american express|discover|diners|jcb|maestro|cc|payment|pay with|charge|billing|cvv|expir)/i;
// Twelve digits are a card only when the text says so in so many words.
const SHORT_CARD_CONTEXT = /\b(?:card|debit|maestro)/i;
const OTHER_CONTEXT =
  /\b(?:order|invoice|tracking|shipment|parcel|reference|ref|account|acct|ticket|serial|imei|id|booking|confirmation|transaction)\b/i;

interface Group {
  readonly start: number;
  readonly end: number;
  /** The character before the group inside its run ("" for the first). */
  readonly sep: string;
}

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

/**
 * Group layouts cards are printed in: one unbroken number, or groups of 3–6 digits after a first
 * group of four (4-4-4-4, Amex 4-6-5, Diners 4-6-4, 4-4-4-4-3), one separator throughout.
 */
function cardLayout(groups: readonly Group[], i: number, j: number): boolean {
  if (i === j) return true;
  const first = groups[i];
  if (first === undefined || first.end - first.start !== 4) return false;
  const sep = groups[i + 1]?.sep;
  for (let k = i + 1; k <= j; k++) {
    const g = groups[k];
    if (g === undefined || g.sep !== sep || g.end - g.start < 3 || g.end - g.start > 6) return false;
  }
  return true;
}

function isCard(text: string, digits: string, start: number, end: number, wholeRun: boolean): boolean {
  if (digits.length < 12 || digits.length > 19 || !isIsolated(text, start, end)) return false;
  if (!luhnValid(digits) || /^(\d)\1+$/.test(digits)) return false;
  const unrelated = hasContext(text, start, end, OTHER_CONTEXT, 32);
  // A 12-digit Maestro number, standing alone and called a card (Presidio finds none).
  if (digits.length === 12)
    return wholeRun && knownIssuer(digits) && !unrelated && hasContext(text, start, end, SHORT_CARD_CONTEXT);
  // A Luhn-valid number is a card when its issuer prefix is real and nothing says it is an order
  // number, or when the text calls it a card.
  return hasContext(text, start, end, CARD_CONTEXT) || (knownIssuer(digits) && !unrelated);
}

export const creditCardRecognizer: Recognizer = {
  entities: ["CREDIT_CARD"],
  find(text, out) {
    if (!/\d{4}/.test(text)) return;
    for (const run of text.matchAll(RUN)) {
      const groups: Group[] = [];
      for (const g of run[0].matchAll(/\d+/g))
        groups.push({
          start: run.index + g.index,
          end: run.index + g.index + g[0].length,
          sep: run[0][g.index - 1] ?? "",
        });
      // From each group, the longest window that is a card; the next search starts after it.
      for (let i = 0; i < groups.length; i++) {
        for (let j = Math.min(groups.length - 1, i + 5); j >= i; j--) {
          if (!cardLayout(groups, i, j)) continue;
          const start = groups[i]?.start ?? 0;
          const end = groups[j]?.end ?? 0;
          const digits = text.slice(start, end).replace(/[ -]/g, "");
          if (!isCard(text, digits, start, end, i === 0 && j === groups.length - 1)) continue;
          out.push({ start, end, label: "CREDIT_CARD" });
          i = j;
          break;
        }
      }
    }
  },
};
