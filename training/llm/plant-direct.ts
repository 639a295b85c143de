import { createRng, type Example, example, pick } from "./example.js";
import { plant } from "./indirect.js";

/** Attacks longer than this are whole jailbreak scripts, not instructions one slips into a document. */
const MAX_WORDS = 40;
/** At most this many planted copies per family, so one large family does not become the lesson. */
const PER_FAMILY = 30;

/**
 * Indirect-injection training rows made from direct attacks: each short attack of `split` is also
 * planted into one of the same split's long benign documents (label 1, kind "indirect", with the
 * attack as its payload so training knows which windows hold it).
 *
 * Why: the planted payloads alone cover a dozen kinds of instruction, so the model can learn
 * "this kind of instruction inside a document" rather than "an instruction addressed to the
 * assistant inside a document". Every direct attack is such an instruction. A planted copy keeps
 * its attack's family (returned in `family`), so cross-fitting never scores a text with a copy of
 * itself, and rows are made per split so no text crosses the train / calibration / test line.
 */
export function plantDirectAttacks(
  split: readonly Example[],
  familyOf: (e: Example) => string,
  seed: number,
): { planted: Example[]; family: Map<Example, string> } {
  const carriers = split.filter((e) => e.label === 0 && e.kind === "long").map((e) => e.text);
  const family = new Map<Example, string>();
  if (carriers.length === 0) return { planted: [], family };
  const rng = createRng(seed);
  const planted: Example[] = [];
  const perFamily = new Map<string, number>();
  for (const attack of split) {
    if (attack.label !== 1 || attack.kind !== "prompt") continue;
    if (attack.text.split(/\s+/u).length > MAX_WORDS) continue;
    const f = familyOf(attack);
    if ((perFamily.get(f) ?? 0) >= PER_FAMILY) continue;
    perFamily.set(f, (perFamily.get(f) ?? 0) + 1);
    const text = plant(pick(carriers, rng), attack.text, rng);
    const row = {
      ...example(text, 1, "planted-direct", attack.group, "indirect"),
      payload: attack.text,
    };
    family.set(row, f);
    planted.push(row);
  }
  return { planted, family };
}
