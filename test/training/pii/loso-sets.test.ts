import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type PiiSource, trainingSets } from "../../../training/pii/fit.js";
import { heldOutSets, losoSplit } from "../../../training/pii/loso-sets.js";

// A pii data folder in the layout of ../shared/datasets/pii, one text per file, each text naming its source.
const dir = mkdtempSync(join(tmpdir(), "pii-loso-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (path: string, body: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), body);
};
const presidio = (text: string) =>
  JSON.stringify([
    { full_text: text, spans: [{ entity_type: "PERSON", start_position: 0, end_position: 3 }] },
  ]);
write("presidio-research/generated_large.json", presidio("Ann of presidio large"));
write("presidio-research/generated_small.json", presidio("Bob of presidio small"));
write(
  "nannigalaxy/pii_syn_nano_en.json",
  JSON.stringify([
    {
      text: "Cy of nannigalaxy mails cy@example.com",
      NER: [
        { entity: "Cy", label: "PERSON" },
        { entity: "cy@example.com", label: "EMAIL" },
      ],
    },
  ]),
);
write("wnut17/wnut17train.conll", "Dee\tB-person\nof\tO\nwnut\tO\ntrain\tO\n");
write("wnut17/emerging.dev.conll", "Eve\tB-person\nof\tO\nwnut\tO\ndev\tO\n");

describe("pii leave-one-source-out split", () => {
  const sets = trainingSets(dir);
  const held = heldOutSets(dir);

  it("holds out each training source, and scores every text of it", () => {
    expect(held.map((h) => h.source).sort()).toEqual([...new Set(sets.map((s) => s.source))].sort());
    for (const h of held) {
      const texts = new Set(h.samples.map((s) => s.text));
      for (const s of sets.filter((t) => t.source === h.source))
        for (const t of s.texts) expect(texts.has(t.text)).toBe(true);
    }
  });

  it("trains on no text of the held-out source", () => {
    for (const h of held) {
      const train = losoSplit(sets, h.source);
      const scored = new Set(h.samples.map((s) => s.text));
      expect(train.length).toBeGreaterThan(0);
      expect(train.some((s) => s.source === h.source)).toBe(false);
      expect(train.flatMap((s) => s.texts).filter((t) => scored.has(t.text))).toEqual([]);
    }
  });

  it("scores the types a source labels that the guardrail reports, under the guardrail's names", () => {
    const by = (source: PiiSource) => held.find((h) => h.source === source);
    expect(by("nannigalaxy")?.scored).toEqual(["EMAIL_ADDRESS", "PERSON"]);
    expect(by("wnut17")?.scored).toEqual(["PERSON"]);
    expect(by("wnut17")?.samples.map((s) => s.text)).toEqual(["Dee of wnut train", "Eve of wnut dev"]);
  });
});
