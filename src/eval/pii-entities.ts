import { PII_ENTITIES } from "../guardrails/pii/entities.js";
import { ratio, round } from "./metrics.js";

/** One PII entity type over the rows whose category names it. */
export interface PiiEntitySummary {
  /** Rows whose category is this entity type. */
  rows: number;
  /** Of those, the rows where pii reported this type. */
  found: number;
  /** Rows where pii reported this type, whatever their category. */
  reported: number;
  /** found / rows; null without such rows. */
  recall: number | null;
  /** found / reported; null when pii never reported it. */
  precision: number | null;
}

const ENTITY_NAMES = new Set<string>(PII_ENTITIES);

/**
 * Per-entity recall and precision of the pii guardrail, for data sets whose category column names
 * the entity each row holds (EMAIL_ADDRESS, US_SSN, …): "flagged" alone does not say whether a row
 * of phone numbers was flagged for its phone number. A type pii reports counts against its
 * precision in rows of another entity category and in rows labelled clean; a row labelled 1 whose
 * category names no type ("mixed") holds PII of types unknown, so its reports count for none.
 */
export class PiiEntityTally {
  readonly #byType = new Map<string, { rows: number; found: number; reported: number }>();
  #named = false;

  add(category: string | null, label: boolean | null, reported: readonly string[] | undefined): void {
    if (reported === undefined) return;
    const wanted = category !== null && ENTITY_NAMES.has(category) ? category : undefined;
    if (!wanted && label === true) return;
    if (wanted) {
      this.#named = true;
      const t = this.#tally(wanted);
      t.rows++;
      if (reported.includes(wanted)) t.found++;
    }
    for (const type of new Set(reported)) this.#tally(type).reported++;
  }

  /** Null unless some row's category named an entity type (a data set not about PII). */
  summary(): Record<string, PiiEntitySummary> | null {
    if (!this.#named) return null;
    const out: Record<string, PiiEntitySummary> = {};
    for (const type of PII_ENTITIES) {
      const t = this.#byType.get(type);
      if (!t) continue;
      const share = (a: number, b: number) => round(ratio(a, b), 4);
      out[type] = { ...t, recall: share(t.found, t.rows), precision: share(t.found, t.reported) };
    }
    return out;
  }

  #tally(type: string) {
    let t = this.#byType.get(type);
    if (!t) {
      t = { rows: 0, found: 0, reported: 0 };
      this.#byType.set(type, t);
    }
    return t;
  }
}
