import { UsageError } from "../../errors.js";
import type { Precision } from "./convert/quantize.js";

export type { Precision } from "./convert/quantize.js";

/**
 * The one setting that picks the sentence encoder's precision: `fp32` (the default) or `int8`.
 * Every command reads this environment variable (check, batch and its workers, serve, index build);
 * `createGuardrail` and `startServer` take `encoderPrecision` instead.
 */
export const PRECISION_ENV = "GUARDRAIL_ENCODER_PRECISION";
export const PRECISIONS: readonly Precision[] = ["fp32", "int8"];

/** A value as given (unset or empty: fp32); anything else is a usage error naming where it came from. */
export function parsePrecision(value: string | undefined, source: string = PRECISION_ENV): Precision {
  if (value === undefined || value === "") return "fp32";
  if ((PRECISIONS as readonly string[]).includes(value)) return value as Precision;
  throw new UsageError(
    `${source}: ${JSON.stringify(value)} is not an encoder precision; use ${PRECISIONS.join(" or ")}`,
  );
}

/** The setting from an environment (`process.env`, or a CLI context's). */
export const precisionFromEnv = (env: Readonly<Record<string, string | undefined>>): Precision =>
  parsePrecision(env[PRECISION_ENV]);
