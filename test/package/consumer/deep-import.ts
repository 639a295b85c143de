// Not part of the public surface: `exports` must hide the package's internals.
import { openGuardrail } from "guardrail/dist/library/guardrail.js";

export const internal = openGuardrail;
