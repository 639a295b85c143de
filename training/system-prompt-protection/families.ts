/**
 * Template families. Every template list is split by position: family 0 and 1 feed the
 * training split, family 2 only the validation and test splits. The learned signal is therefore
 * scored on phrasings it never saw, not on its own templates.
 */
export type Split = "train" | "val" | "test";

export function family<T>(items: readonly T[], split: Split): T[] {
  const held = split !== "train";
  return items.filter((_, i) => (i % 3 === 2) === held);
}

/** Fills `{name}` slots from `vars`; unknown slots are left as they are. */
export function fill(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
}
