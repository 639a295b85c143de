import type { Finding, GuardrailDefinition, Span } from "../types.js";
import { createPiiDetect, type PiiDetect, resolveOverlaps } from "./detect.js";
import { PII_ENTITIES, type PiiEntity } from "./entities.js";
import { loadOwnTagger } from "./own-model.js";
import { type PiiSettings, piiSettingsSchema } from "./settings.js";

/*
 * Entity types (Presidio's names where Presidio has one):
 *
 * | entity             | how it is found                                                            |
 * | ------------------ | -------------------------------------------------------------------------- |
 * | EMAIL_ADDRESS      | local@domain.tld                                                           |
 * | PHONE_NUMBER       | +international via libphonenumber-js; NANP layouts; others with cue words  |
 * | CREDIT_CARD        | 13–19 digits, Luhn, issuer prefix (or card words), not an order number;    |
 * |                    | cards side by side split on group boundaries; 12-digit Maestro with words  |
 * | IBAN_CODE          | country length (SWIFT registry) and ISO 13616 mod-97                       |
 * | US_SSN             | SSA-valid area/group/serial; dashed or dotted, or spaced/bare with SSN     |
 * |                    | words; never inside a longer number                                        |
 * | US_DRIVER_LICENSE  | state-style letters+digits next to "driver's license"/"DL"; or a layout    |
 * |                    | with letters that a state named beside it issues (state-licenses.ts)       |
 * | IP_ADDRESS         | IPv4 with valid octets, not a version or inside "1.2.3.4.5"; IPv6 incl.    |
 * |                    | "::1", "::ffff:1.2.3.4" and "%zone"; not code like "a::b"                  |
 * | CRYPTO             | Bitcoin Base58Check P2PKH/P2SH, bech32/bech32m (checksums verified)        |
 * | URL                | scheme or www. URLs, bare domains with common TLDs                         |
 * | DATE_TIME          | numeric and ISO dates (zones too), month names (also "12-Jan-2024"),       |
 * |                    | month/year, month/day after a date word, weekdays, am/pm times             |
 * | PERSON             | trained BIO tagger (models/pii/tagger): word shape, context, lexicons       |
 * | LOCATION           | the same tagger (lexicon features: countries, cities, provinces)           |
 * | ORGANIZATION       | the same tagger (features: suffixes like Inc/Ltd, well-known names)        |
 * | ADDRESS            | street/unit/PO-box rules with house numbers and postcodes, plus the tagger |
 * | AWS_ACCESS_KEY     | AKIA/ASIA/… + 16 base32 characters                                         |
 * | PRIVATE_KEY        | PEM "-----BEGIN … PRIVATE KEY-----" blocks                                 |
 * | API_KEY            | GitHub ghp_/github_pat_, Slack xox*, Stripe sk_live_, Google AIza, OpenAI  |
 * |                    | sk-…, and JWTs (bearer tokens)                                             |
 */
export { NAME_ENTITIES, PII_ENTITIES, type PiiEntity } from "./entities.js";
export { type PiiSettings, piiSettingsSchema } from "./settings.js";

/** Enough to show where the findings are without letting a hostile text grow the finding. */
const MAX_SPANS = 100;

let defaultDetect: PiiDetect | undefined;
const ALL = new Set<PiiEntity>(PII_ENTITIES);

/**
 * Finds PII in a string (offsets are into that string). For scripts and reuse; the guardrail
 * builds its own detector in `create`. The all-entities detector is built on first use and kept,
 * since reading the lexicons per call would dominate the cost.
 */
export function detectPii(text: string, entities?: ReadonlySet<string>): Span[] {
  defaultDetect ??= createPiiDetect(ALL);
  const spans = defaultDetect(text);
  return entities ? spans.filter((s) => entities.has(s.label)) : spans;
}

function entityTypes(spans: readonly Span[]): string[] {
  const found = new Set(spans.map((s) => s.label));
  return PII_ENTITIES.filter((e) => found.has(e));
}

export const piiGuardrail = {
  id: "pii",
  appliesTo: ["input", "output"],
  settings: piiSettingsSchema,
  reportsSpans: true,
  create(settings, context) {
    const wanted = new Set(settings.entities);
    const detect = createPiiDetect(wanted);
    const finding = (found: readonly Span[], spansFrom: number | undefined): Finding => {
      // Entity types from every finding; only the first spans (of those wanted) are kept.
      const entities = entityTypes(found);
      const kept = spansFrom === undefined ? found : found.filter((s) => s.end > spansFrom);
      const spans = kept.slice(0, MAX_SPANS);
      const cut = kept.length > MAX_SPANS ? { spansCut: true } : {};
      return { flagged: found.length > 0, entities, spans, score: found.length > 0 ? 1 : 0, ...cut };
    };
    if (!settings.model) return { check: ({ text, spansFrom }) => finding(detect(text.clean), spansFrom) };
    // A model of the profile's own adds its entities; overlaps resolve as among the rules.
    return loadOwnTagger(settings.model, context.baseDir, wanted).then((own) => ({
      async check({ text, spansFrom }) {
        const found = resolveOverlaps([...detect(text.clean), ...(await own.find(text.clean))]);
        return finding(found, spansFrom);
      },
    }));
  },
  render(finding) {
    if (finding === undefined) return { enabled: false, detected: false, entities: [] };
    return { enabled: true, detected: finding.flagged, entities: [...(finding.entities ?? [])] };
  },
} satisfies GuardrailDefinition<PiiSettings>;
