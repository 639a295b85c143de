import { describe, expect, it } from "vitest";
import { fakeEncoder } from "../helpers/fake-encoder.js";
import { INPUT, makeApp, OUTPUT, post, readCheck, useConfigDir } from "./fixtures.js";

const setup = useConfigDir();

// Pinned by hand, not derived: the key orders of `checks` in docs/service-spec.md, per endpoint.
const SPEC_ORDER: [string, string[]][] = [
  [INPUT, ["llm", "keyword", "regex", "pii", "vector"]],
  [OUTPUT, ["content_moderation", "keyword", "regex", "pii", "system_prompt_protection"]],
];

const EVERYTHING_ON = `name: main
default: true
guardrails:
  llm: { enabled: true }
  vector: { enabled: true }
  keyword: { enabled: true, keywords: [ignore previous instructions] }
  regex: { enabled: true, patterns: [{ name: digits, pattern: "[0-9]{4}" }] }
  pii: { enabled: true }
  content_moderation: { enabled: true }
  system_prompt_protection: { enabled: true }
`;

describe("the order of `checks` keys", () => {
  it.each(SPEC_ORDER)("%s lists every guardrail in the spec's order", async (path, order) => {
    await setup.fixture.writeProfile("main.yaml", EVERYTHING_ON);
    const { app } = await makeApp(setup.fixture, { encoder: fakeEncoder(512) });
    const res = await app.request(...post(path, { message: "Hello there", prompt: "Hi" }, setup.auth));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-guardrail-errors")).toBeNull();
    const { checks } = await readCheck(res);
    expect(Object.keys(checks)).toEqual(order);
    expect(Object.values(checks).every((c) => c.enabled === true)).toBe(true);
  });
});
