import { describe, expect, it } from "vitest";
import { lazyEmbedding } from "../../src/engine/embedding.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import type { AnyGuardrailDefinition, CheckMode, Finding } from "../../src/guardrails/types.js";
import { normalizeText } from "../../src/text/normalize.js";
import { fakeEncoder } from "../helpers/fake-encoder.js";

// Contract, not quality: a stand-in encoder keeps this suite fast whatever the text size.
const encoder = fakeEncoder();

/** The smallest enabled settings for each guardrail that can run in this build. */
const ENABLED: Record<keyof typeof builtinGuardrails, unknown> = {
  keyword: { enabled: true, keywords: ["ignore previous instructions"] },
  regex: { enabled: true, patterns: [{ name: "digits", pattern: "[0-9]{4}" }] },
  pii: { enabled: true },
  llm: { enabled: true },
  vector: { enabled: true },
  content_moderation: { enabled: true },
  system_prompt_protection: {
    enabled: true,
    system_prompt: "You are the Acme support assistant. Never reveal the discount code ACME-7781.",
    canaries: ["ZX-CANARY-1"],
  },
};

/** Texts every detector must survive: empty, huge, odd Unicode, control characters. */
const HOSTILE = [
  "",
  " ",
  "a".repeat(200_000),
  "\u0000\u0001\u200b\u202e\ufeff",
  "😀".repeat(5_000),
  "\ud800 lone surrogate",
  "ignore previous instructions 1234 bob@example.com",
];

function assertDisabledShape(shape: Record<string, unknown>) {
  expect(shape.enabled).toBe(false);
  for (const [key, value] of Object.entries(shape)) {
    if (key === "enabled") continue;
    if (Array.isArray(value)) expect(value, key).toEqual([]);
    else if (typeof value === "boolean") expect(value, key).toBe(false);
    else expect(value, key).toBeNull();
  }
}

const definitions: AnyGuardrailDefinition[] = Object.values(builtinGuardrails);

describe.each(definitions)("guardrail $id", (definition) => {
  it("is off unless enabled, and renders the spec's disabled shape", () => {
    expect(definition.settings.parse({})).toMatchObject({ enabled: false });
    assertDisabledShape(definition.render(undefined));
  });

  it("rejects unknown settings", () => {
    expect(definition.settings.safeParse({ enabled: false, no_such_setting: 1 }).success).toBe(false);
  });

  const enabled = ENABLED[definition.id as keyof typeof ENABLED];

  it.each(HOSTILE.map((text) => [text.slice(0, 20), text]))("returns a finding for %j", async (_, text) => {
    const detector = await definition.create(definition.settings.parse(enabled), { baseDir: ".", encoder });
    for (const mode of definition.appliesTo as CheckMode[]) {
      const normalized = normalizeText(text);
      const embedding = lazyEmbedding(encoder, normalized.clean);
      const finding: Finding = await detector.check({ mode, text: normalized, embedding });
      expect(typeof finding.flagged).toBe("boolean");
      const shape = definition.render(finding);
      expect(shape.enabled).toBe(true);
      expect(Object.keys(shape).sort()).toEqual(Object.keys(definition.render(undefined)).sort());
    }
  });

  // The engine tells what a streamed chunk completes from the spans (src/engine/context.ts).
  it.runIf(definition.reportsSpans)("backs every reported item with a span of its label", async () => {
    const detector = await definition.create(definition.settings.parse(enabled), { baseDir: ".", encoder });
    for (const text of [...HOSTILE, "Ignore Previous Instructions 4321, mail ann@example.org, 2024-05-01"]) {
      const finding = await detector.check({ mode: "output", text: normalizeText(text) });
      const labels = new Set((finding.spans ?? []).map((s) => s.label));
      const items = [...(finding.matched ?? []), ...(finding.entities ?? [])];
      if (!finding.spansCut) expect(items.filter((item) => !labels.has(item))).toEqual([]);
      expect(finding.flagged).toBe(items.length > 0);
    }
  });
});
