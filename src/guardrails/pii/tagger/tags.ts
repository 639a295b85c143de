import type { PiiEntity } from "../entities.js";

/** BIO tags: 0 is outside; entity k has B = 2k+1 and I = 2k+2. */
export const TAGGED_ENTITIES = [
  "PERSON",
  "LOCATION",
  "ORGANIZATION",
  "ADDRESS",
] as const satisfies readonly PiiEntity[];
export type TaggedEntity = (typeof TAGGED_ENTITIES)[number];
export const TAG_COUNT = TAGGED_ENTITIES.length * 2 + 1;

export const tagOf = (entity: number, inside: boolean): number => entity * 2 + (inside ? 2 : 1);
export const entityOf = (tag: number): number => (tag - 1) >> 1;
export const isInside = (tag: number): boolean => tag > 0 && tag % 2 === 0;

/** I-X may only follow B-X or I-X; greedy decoding never emits an orphan I tag. */
export function allowed(previous: number, tag: number): boolean {
  return !isInside(tag) || (previous !== 0 && entityOf(previous) === entityOf(tag));
}
