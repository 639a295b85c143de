// Letters from Cyrillic, Greek and a few Latin extensions that render like ASCII letters, taken
// from the Unicode confusables list (https://www.unicode.org/Public/security/latest/confusables.txt)
// for the characters attackers actually use to dodge word filters. NFKC already folds full-width,
// mathematical and circled forms, so only cross-script look-alikes need a table.
// Each entry is a look-alike followed by the ASCII letter it folds to.
const PAIRS =
  "аa вb сc ԁd еe һh іi јj кk ӏl мm нh оo рp ԛq ѕs тt цu ѵv ԝw хx уy үy ѐe ёe їi АA ВB СC ЕE " +
  "НH ІI ЈJ КK МM ОO РP ЅS ТT ХX УY ҮY ԜW ԚQ αa βb εe ηn ιi κk νv οo ρp τt υu χx γy ωw ΑA ΒB " +
  "ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX ıi ȷj ɡg ɑa ʏy ɪi ᴄc ᴏo ᴠv ᴡw ᴢz ꞵb ſs ";

const TABLE = new Map<string, string>(
  PAIRS.trim()
    .split(/\s+/u)
    .map((pair) => [...pair] as [string, string]),
);
const PATTERN = new RegExp(`[${[...TABLE.keys()].join("")}]`, "gu");

export function foldConfusables(text: string): string {
  return text.replace(PATTERN, (ch) => TABLE.get(ch) ?? ch);
}
