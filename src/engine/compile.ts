import { dirname } from "node:path";
import type { Profile } from "../config/profile.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import {
  type AnyGuardrailDefinition,
  type Detector,
  GUARDRAIL_IDS,
  type GuardrailId,
} from "../guardrails/types.js";

export interface ActiveGuardrail {
  readonly id: GuardrailId;
  readonly definition: AnyGuardrailDefinition;
  readonly detector: Detector;
}

/** A profile with its enabled guardrails built once, ready to serve many requests. */
export interface CompiledProfile {
  readonly profile: Profile;
  readonly active: readonly ActiveGuardrail[];
}

/** Builds every enabled guardrail's detector. Expensive work (automata, regexes) happens here, once. */
export function compileProfile(profile: Profile, registry: GuardrailRegistry): CompiledProfile {
  const context = { baseDir: dirname(profile.file) };
  const active = GUARDRAIL_IDS.filter((id) => profile.guardrails[id].enabled).map((id) => {
    const definition = registry[id];
    return { id, definition, detector: definition.create(profile.guardrails[id], context) };
  });
  return { profile, active };
}
