import { z } from "zod";
import type { Detector } from "../types.js";

/**
 * The model-backed guardrails are part of the spec but not of this build. Their settings are
 * validated now so profiles written today keep working, and enabling one is a config error
 * (see `unavailable`) rather than a silent no-op.
 */
export const UNAVAILABLE_REASON =
  "is not available in this version (the model-backed guardrails ship in a later release): set enabled: false";

export const threshold = (fallback: number) =>
  z.number().min(0, "must be ≥ 0").max(1, "must be ≤ 1").default(fallback);

export function unavailableDetector(id: string): Detector {
  throw new Error(`guardrail ${id} ${UNAVAILABLE_REASON}`);
}
