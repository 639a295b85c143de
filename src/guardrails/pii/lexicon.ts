import { readFileSync } from "node:fs";

/** The name lexicons, lower-cased for lookup. Built by training/data/generators/pii/build-lexicons.py (see its README). */
export interface Lexicon {
  readonly firstNames: ReadonlySet<string>;
  /** First names that are also common English words ("Will", "Grace"): need more evidence. */
  readonly ambiguousNames: ReadonlySet<string>;
  readonly commonWords: ReadonlySet<string>;
  /** Countries, capitals, cities and provinces, keyed by their lower-cased form. */
  readonly places: ReadonlySet<string>;
  /** Longest place name in tokens, to bound the lookahead. */
  readonly maxPlaceTokens: number;
}

// Names people use for countries besides the official short names countries-list gives.
const PLACE_ALIASES = [
  "USA",
  "U.S.",
  "U.S.A.",
  "America",
  "UK",
  "U.K.",
  "Britain",
  "Great Britain",
  "England",
  "Scotland",
  "Wales",
  "Northern Ireland",
  "Russia",
  "Czech Republic",
  "Holland",
  "Macedonia",
  "Burma",
  "Korea",
  "North Korea",
  "Republic of Korea",
  "Congo",
  "Republic of the Congo",
  "DR Congo",
  "Cote d'Ivoire",
  "Côte d'Ivoire",
  "Vatican",
  "Vatican City",
  "Palestine",
  "Taiwan",
  "Hong Kong",
  "Macau",
  "Europe",
  "Asia",
  "Africa",
  "North America",
  "South America",
  "Latin America",
  "Middle East",
  "Scandinavia",
  "Siberia",
  "Caribbean",
  "Antarctica",
  "Oceania",
  "New York City",
  "NYC",
  "LA",
  "Washington DC",
  "Washington D.C.",
  "Bay Area",
  "Silicon Valley",
  "East Timor",
  "Swaziland",
  "Cape Verde",
  "Micronesia",
  "Bosnia",
  "Herzegovina",
  "Trinidad",
  "Tobago",
  "Saint Lucia",
  "St Lucia",
];

const MODELS = new URL("../../../models/pii/", import.meta.url);

function readList(name: string): string[] {
  return readFileSync(new URL(name, MODELS), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** Reads and indexes the lexicon files; call once per detector, never per message. */
export function loadLexicon(): Lexicon {
  const placeList = [...readList("places.txt"), ...PLACE_ALIASES];
  let maxPlaceTokens = 1;
  for (const place of placeList) maxPlaceTokens = Math.max(maxPlaceTokens, place.split(" ").length);
  return {
    firstNames: new Set(readList("first-names.txt").map((n) => n.toLowerCase())),
    ambiguousNames: new Set(readList("ambiguous-names.txt").map((n) => n.toLowerCase())),
    commonWords: new Set(readList("common-words.txt")),
    places: new Set(placeList.map((p) => p.toLowerCase())),
    maxPlaceTokens: Math.min(maxPlaceTokens, 6),
  };
}
