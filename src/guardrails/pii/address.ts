import type { Lexicon } from "./lexicon.js";
import type { PiiSpan, Recognizer } from "./recognizer.js";

const CAP = "[\\p{Lu}][\\p{L}\\p{M}'’.-]*";
const WORD = "[\\p{L}][\\p{L}\\p{M}'’.-]*";
// English street types (USPS Publication 28, C1) and the street words of other European languages.
const STREET_TYPE =
  "(?:Street|St\\.?|Road|Rd\\.?|Avenue|Ave\\.?|Boulevard|Blvd\\.?|Lane|Ln\\.?|Drive|Dr\\.?|Court|Ct\\.?|Place|Pl\\.?|" +
  "Square|Sq\\.?|Way|Terrace|Parkway|Pkwy\\.?|Highway|Hwy\\.?|Circle|Cir\\.?|Trail|Crescent|Close|Row|Alley|Plaza|" +
  "Grove|Gardens|Walk|Mews|Esplanade|Quay|Wharf|Broadway)";
const FOREIGN_SUFFIX =
  "(?:straße|strasse|stasse|str\\.|weg|gasse|laan|straat|plein|gracht|kade|vej|gade|gatan|vägen|" +
  "katu|tie|utca|u\\.|ulica|cesta|ulice|sokak|caddesi)";
const FOREIGN_STREET = `[\\p{L}\\p{M}-]*${FOREIGN_SUFFIX}`;
const STREET_LEAD =
  "(?:Via|Viale|Rue|Avenue|Calle|Avenida|Rua|Praça|Plaza|Chemin|Boulevard|Piazza|Corso|R\\.|Av\\.)";
// A word must be followed by a space, so it runs to the end of its run of word characters: every
// capital in one run succeeds or fails alike. Only the run's first capital is tried (the same
// matches); trying each capital of a long "AAAA…" or "A-A-A-…" rescans the run from each, O(n²).
const FIRST_CAP = "(?=\\p{Lu})(?<!\\p{Lu}[\\p{L}\\p{M}'’.-]*?)";
// Likewise a street word ends its run, so it is only tried from the start of the run.
const RUN_START = "(?<![\\p{L}\\p{M}-])";
// Each with a quick test that every match passes (its street word is there): the patterns start
// anywhere and cost ~10 ms per 100,000 characters each, and most messages have no street word.
const PIECES: readonly { pattern: RegExp; hint?: RegExp }[] = [
  // "2326 Parkdale Avenue", "00 2326 Parkdale Avenue", "55 Halsey Road", "Almeida Street".
  {
    pattern: new RegExp(
      `(?:\\b\\d{1,5}[A-Za-z]? (?:\\d{1,5} )?)?${FIRST_CAP}(?:${CAP} ){0,3}${CAP} ${STREET_TYPE}(?![\\p{L}])`,
      "gu",
    ),
    hint: new RegExp(` ${STREET_TYPE}(?![\\p{L}])`, "u"),
  },
  {
    pattern: new RegExp(
      `(?:\\b\\d{1,5} (?:\\d{1,5} )?)(?:${CAP} ){0,3}${CAP} ${STREET_TYPE.toLowerCase()}(?![\\p{L}])`,
      "giu",
    ),
  },
  // "Linieweg 350", "94 Koskikatu 83", "Hegedûs Gyula utca 76.", "via raffaele conforti 74".
  {
    pattern: new RegExp(
      `(?:\\b\\d{1,5} )?(?:${FIRST_CAP}${CAP} (?:${CAP} )?)?${RUN_START}${FOREIGN_STREET} \\d{1,5}[a-z]?\\b\\.?`,
      "giu",
    ),
    hint: new RegExp(`${FOREIGN_SUFFIX} \\d`, "iu"),
  },
  {
    pattern: new RegExp(
      `(?:\\b\\d{1,5},? )?\\b${STREET_LEAD} (?:${WORD} ){0,3}${WORD}(?: \\d{1,5}\\b)?`,
      "giu",
    ),
  },
  // "56 Canelones 2266", "45 R Carne Azeda 16": house number, capitalised words, number.
  { pattern: new RegExp(`\\b\\d{1,5} (?:${CAP} ){1,3}\\d{1,5}\\b`, "gu") },
  // Unit lines and US military/PO addresses: "Apt. 676", "Suite 256", "PSC 4926, Box 7979", "APO AA 63682".
  {
    pattern: /\b(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Box|PO Box|P\.O\. Box|PSC|Flat|Floor)\s?#?\d{1,5}\b/gi,
  },
  { pattern: /\b(?:USNS|USNV|USS|USCGC) \p{Lu}[\p{L}\p{M}'-]+(?= FPO)/gu },
  { pattern: /\b(?:FPO|APO|DPO) (?:AA|AE|AP) \d{5}\b/gi },
];
// After a street piece: city/state/country words, two-letter state codes, ZIP or postcodes.
const TAIL = new RegExp(`^(?:,? (?:${CAP}|[A-Z]{2}|nan|\\d{4,5}(?:-\\d{4})?)(?=[ ,.]|$)){1,7}`, "u");
const GLUE = /^[ ,]*(?:and |& )?$/;

export function createAddressRecognizer(lexicon: Lexicon): Recognizer {
  return {
    entities: ["ADDRESS"],
    find(text, out: PiiSpan[]) {
      if (!/\d/.test(text) && !/Street|Road|Avenue|Lane/i.test(text)) return;
      const pieces: { start: number; end: number }[] = [];
      for (const { pattern, hint } of PIECES) {
        if (hint && !hint.test(text)) continue;
        for (const m of text.matchAll(pattern)) pieces.push({ start: m.index, end: m.index + m[0].length });
      }
      if (pieces.length === 0) return;
      pieces.sort((a, b) => a.start - b.start);
      const merged: { start: number; end: number }[] = [];
      for (const piece of pieces) {
        const last = merged[merged.length - 1];
        if (last && (piece.start <= last.end || GLUE.test(text.slice(last.end, piece.start)))) {
          last.end = Math.max(last.end, piece.end);
        } else merged.push({ ...piece });
      }
      for (const m of merged) {
        // Only a street line carries a tail of city, state and postcode words; a bare "Apt. 4" does not.
        const tail = TAIL.exec(text.slice(m.end));
        if (tail && /\p{L}{3}/u.test(text.slice(m.start, m.end))) m.end += trimTail(tail[0], lexicon).length;
        out.push({ start: m.start, end: m.end, label: "ADDRESS" });
      }
    },
  };
}

/** Stops the tail before a word that starts a new sentence or is an everyday word ("Please"). */
function trimTail(tail: string, lexicon: Lexicon): string {
  const words = tail.split(/(?=,? )/);
  let kept = "";
  for (const w of words) {
    const bare = w.replace(/^,? /, "").toLowerCase();
    if (lexicon.commonWords.has(bare) && !lexicon.places.has(bare)) break;
    kept += w;
  }
  return kept;
}
