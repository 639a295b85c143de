import { UsageError } from "../../errors.js";
import type { Precision } from "./convert/quantize.js";

export type { Precision } from "./convert/quantize.js";

/**
 * The one setting that picks the sentence encoder's precision: `int8` (the default) or `fp32`.
 * Every command reads this environment variable (check, batch and its workers, serve, proxy);
 * `createGuardrail` and `startServer` take `encoderPrecision` instead. `index build` always uses
 * fp32, whose indexes serve both.
 */
export const PRECISION_ENV = "GUARDRAIL_ENCODER_PRECISION";
export const PRECISIONS: readonly Precision[] = ["fp32", "int8"];

/**
 * int8 runs the product: held out, every model-backed guardrail scores within noise of fp32 with it,
 * at about half the encoder's CPU (models/use-lite/README.md). fp32 stays the reference: every
 * model is trained on its vectors, and the bundled vector index is built with it.
 */
export const DEFAULT_PRECISION: Precision = "int8";

/** A value as given (unset or empty: the default); anything else is a usage error naming where it came from. */
export function parsePrecision(value: string | undefined, source: string = PRECISION_ENV): Precision {
  if (value === undefined || value === "") return DEFAULT_PRECISION;
  if ((PRECISIONS as readonly string[]).includes(value)) return value as Precision;
  throw new UsageError(
    `${source}: ${JSON.stringify(value)} is not an encoder precision; use ${PRECISIONS.join(" or ")}`,
  );
}

/** The setting from an environment (`process.env`, or a CLI context's). */
export const precisionFromEnv = (env: Readonly<Record<string, string | undefined>>): Precision =>
  parsePrecision(env[PRECISION_ENV]);
