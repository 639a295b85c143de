import { dirname } from "node:path";
import type { Profile } from "../config/profile.js";
import { appliesIn } from "../guardrails/applies-to.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import {
  type AnyGuardrailDefinition,
  type CheckMode,
  type Detector,
  GUARDRAIL_IDS,
  type GuardrailId,
} from "../guardrails/types.js";
import type { Encoder } from "../models/encoder.js";

export interface ActiveGuardrail {
  readonly id: GuardrailId;
  readonly definition: AnyGuardrailDefinition;
  readonly detector: Detector;
  /** Whether it runs for input-check or output-check: see appliesIn. */
  readonly appliesTo: (mode: CheckMode) => boolean;
}

/** A profile with its enabled guardrails built once, ready to serve many requests. */
export interface CompiledProfile {
  readonly profile: Profile;
  readonly active: readonly ActiveGuardrail[];
}

/** Every detector's build notes, each prefixed with its guardrail, for the CLI or server to report. */
export function compileNotes(compiled: CompiledProfile): string[] {
  return compiled.active.flatMap(({ id, detector }) =>
    (detector.notes ?? []).map((note) => `${compiled.profile.name}: ${id}: ${note}`),
  );
}

/** Whether any enabled guardrail reads embeddings, so a caller knows to provide the encoder. */
export function needsEncoder(profile: Profile, registry: GuardrailRegistry): boolean {
  return GUARDRAIL_IDS.some((id) => profile.guardrails[id].enabled && registry[id].usesEncoder === true);
}

/** Builds every enabled guardrail's detector. Expensive work (automata, regexes) happens here, once. */
export async function compileProfile(
  profile: Profile,
  registry: GuardrailRegistry,
  encoder?: Encoder,
): Promise<CompiledProfile> {
  const context = { baseDir: dirname(profile.file), ...(encoder ? { encoder } : {}) };
  const enabled = GUARDRAIL_IDS.filter((id) => profile.guardrails[id].enabled);
  const active = await Promise.all(
    enabled.map(async (id) => {
      const definition = registry[id];
      const settings = profile.guardrails[id];
      const detector = await definition.create(settings, context);
      return {
        id,
        definition,
        detector,
        appliesTo: (mode: CheckMode) => appliesIn(definition, settings, mode),
      };
    }),
  );
  return { profile, active };
}
