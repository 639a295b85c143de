import { describe, expect, it } from "vitest";
import { PII_ENTITIES, piiGuardrail } from "../../../src/guardrails/pii/index.js";
import type { Detector, Finding } from "../../../src/guardrails/types.js";
import { normalizeText } from "../../../src/text/normalize.js";

describe("pii guardrail", () => {
  it("defaults to disabled with every entity, flagging what it finds (not redacting it)", () => {
    const settings = piiGuardrail.settings.parse({});
    expect(settings).toEqual({ enabled: false, entities: [...PII_ENTITIES], action: "flag" });
  });

  it("rejects unknown entity names, listing the supported ones", () => {
    const result = piiGuardrail.settings.safeParse({
      enabled: true,
      entities: ["EMAIL_ADDRESS", "SHOE_SIZE"],
    });
    expect(result.success).toBe(false);
    const message = result.error?.issues[0]?.message ?? "";
    expect(message).toContain('"SHOE_SIZE"');
    expect(message).toContain("EMAIL_ADDRESS, PHONE_NUMBER");
    expect(result.error?.issues[0]?.path).toEqual(["entities", 1]);
  });

  it("rejects unknown settings keys", () => {
    expect(piiGuardrail.settings.safeParse({ enabled: true, threshold: 1 }).success).toBe(false);
  });

  it("renders the disabled and enabled shapes", () => {
    expect(piiGuardrail.render(undefined)).toEqual({ enabled: false, detected: false, entities: [] });
    expect(piiGuardrail.render({ flagged: false, entities: [] })).toEqual({
      enabled: true,
      detected: false,
      entities: [],
    });
  });

  it("checks only the configured entities and reports types once, in a stable order", () => {
    const settings = piiGuardrail.settings.parse({ enabled: true, entities: ["US_SSN", "EMAIL_ADDRESS"] });
    const detector = piiGuardrail.create(settings, { baseDir: "." }) as Detector;
    const text = normalizeText("ssn 123-45-6788, mail a@b.io and c@d.io, card 4111 1111 1111 1111");
    const finding = detector.check({ mode: "input", text });
    expect(finding).toMatchObject({ flagged: true, entities: ["EMAIL_ADDRESS", "US_SSN"] });
    expect(piiGuardrail.render(finding as never)).toEqual({
      enabled: true,
      detected: true,
      entities: ["EMAIL_ADDRESS", "US_SSN"],
    });
  });

  it("keeps the first 100 spans of a finding but every entity type", () => {
    const detector = piiGuardrail.create(piiGuardrail.settings.parse({ enabled: true }), {
      baseDir: ".",
    }) as Detector;
    const text = normalizeText(`${"mail a@b.io ".repeat(500)}ssn 123-45-6788`);
    const finding = detector.check({ mode: "input", text }) as Finding;
    expect(finding.spans).toHaveLength(100);
    expect(finding.entities).toEqual(["EMAIL_ADDRESS", "US_SSN"]);
  });

  it("reports nothing on clean text", () => {
    const detector = piiGuardrail.create(piiGuardrail.settings.parse({ enabled: true }), {
      baseDir: ".",
    }) as Detector;
    expect(
      detector.check({ mode: "output", text: normalizeText("The weather is nice today.") }),
    ).toMatchObject({
      flagged: false,
      entities: [],
    });
  });
});
