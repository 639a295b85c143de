/**
 * The guardrail lists other code needs, derived from a registry's definitions so that none is kept
 * by hand: a new guardrail appears in each as soon as it is registered.
 */
import type { GuardrailRegistry } from "./registry.js";
import type { CheckMode, GuardrailId } from "./types.js";

const idsOf = (registry: GuardrailRegistry) => Object.keys(registry) as GuardrailId[];

/** The keys of an endpoint's `checks` object, in order: the registry's order, filtered by `appliesTo`. */
export function checkOrder(registry: GuardrailRegistry, mode: CheckMode): GuardrailId[] {
  return idsOf(registry).filter((id) => registry[id].appliesTo.includes(mode));
}

/** The guardrails whose findings carry a graded score: batch draws curves and sweeps for these. */
export function scoredGuardrails(registry: GuardrailRegistry): GuardrailId[] {
  return idsOf(registry).filter((id) => registry[id].scored === true);
}
