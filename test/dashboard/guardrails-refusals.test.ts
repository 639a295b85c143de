import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CSRF, MAIN_YAML, post } from "./helpers/app.js";
import { formFields, open, set, setup } from "./helpers/form.js";

describe("Guardrails section refuses, and says why", () => {
  it("refuses an invalid regex with the loader's message, tied to the input, and writes nothing", async () => {
    const { app, file, read } = await setup();
    const before = await read("main");
    const fields = set(formFields(await open(app, "main")), "regex.patterns.0.pattern", "(?<=a)b");
    const res = await post(app, "/guardrails/main", fields);
    expect(res.status).toBe(422);
    const page = await res.text();
    // The line and column are those of the text the save would have written.
    const message = `${file("main")}:10:18: guardrails.regex.patterns[0].pattern: pattern &quot;ticket&quot;: lookbehind (?&lt;=…) is not supported: patterns run on a linear-time engine (RE2 syntax, https://github.com/google/re2/wiki/Syntax)`;
    expect(page).toContain(message);
    expect(page).toContain('aria-describedby="regex-patterns-0-pattern-error" aria-invalid="true"');
    expect(page).toContain('<div class="field-error" id="regex-patterns-0-pattern-error" role="alert"><ul>');
    expect(page).toContain('value="(?&lt;=a)b"');
    expect(await read("main")).toBe(before);
  });

  it("answers the live regex check with the same messages", async () => {
    const { app } = await setup();
    const check = async (rule: object) =>
      (
        await app.request("/guardrails/validate-regex", {
          method: "POST",
          headers: { "content-type": "application/json", "x-csrf-token": CSRF },
          body: JSON.stringify(rule),
        })
      ).json();
    expect(await check({ pattern: "\\bTICKET-[0-9]{5}\\b", flags: "i" })).toEqual({
      valid: true,
      errors: [],
    });
    expect(await check({ name: "t", pattern: "(?<=a)b" })).toEqual({
      valid: false,
      errors: [
        {
          field: "pattern",
          message:
            'pattern "t": lookbehind (?<=…) is not supported: patterns run on a linear-time engine (RE2 syntax, https://github.com/google/re2/wiki/Syntax)',
        },
      ],
    });
    expect(await check({ pattern: "a", flags: "x" })).toMatchObject({
      valid: false,
      errors: [{ field: "flags", message: expect.stringContaining('unknown flag "x"') }],
    });
  });

  it("refuses a profile the loader would refuse, with its messages", async () => {
    const { app, read } = await setup();
    const before = await read("main");
    const fields = set(formFields(await open(app, "main")), "llm.threshold", "1.5");
    const res = await post(app, "/guardrails/main", fields);
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toMatch(/main\.yaml:\d+:\d+: guardrails\.llm\.threshold: must be ≤ 1/);
    expect(page).toContain(
      '<div class="field-error" id="llm-threshold-error" role="alert"><ul><li>must be ≤ 1</li></ul></div>',
    );
    expect(await read("main")).toBe(before);
  });

  it("refuses with 409 when the file changed after the page was rendered, and leaves it alone", async () => {
    const { app, file, read } = await setup();
    const fields = set(formFields(await open(app, "main")), "llm.threshold", "0.9");
    const edited = (await read("main")).replace("threshold: 0.50", "threshold: 0.55");
    await writeFile(file("main"), edited);
    const res = await post(app, "/guardrails/main", fields);
    expect(res.status).toBe(409);
    const page = await res.text();
    expect(page).toContain(`${file("main")} changed since this page was opened`);
    expect(page).toContain("Reload the page");
    expect(await read("main")).toBe(edited);
  });

  it("answers 404 for a profile that is not there", async () => {
    const { app } = await setup();
    expect((await app.request("/guardrails/nope")).status).toBe(404);
    expect((await post(app, "/guardrails/nope", [["sha256", "0"]])).status).toBe(404);
  });
  it("shows a hand-broken file's problems under their inputs, and saves the fix", async () => {
    const { app, file, read } = await setup();
    await writeFile(file("main"), (await read("main")).replace("threshold: 0.50", "threshold: 2"));
    const list = await (await app.request("/guardrails")).text();
    expect(list).toContain("(does not load)");
    const page = await open(app, "main");
    expect(page).toContain("<h2>This file does not load as it is</h2>");
    expect(page).toContain(
      '<div class="field-error" id="llm-threshold-error" role="alert"><ul><li>must be ≤ 1</li></ul></div>',
    );
    const res = await post(app, "/guardrails/main", set(formFields(page), "llm.threshold", "0.5"));
    expect(res.status).toBe(303);
    expect(await read("main")).toBe(MAIN_YAML.replace("threshold: 0.50", "threshold: 0.5"));
  });
  it("narrows keyword to prompts, and refuses neither endpoint with the loader's words", async () => {
    const { app, read } = await setup();
    const before = await read("main");
    let fields = set(formFields(await open(app, "main")), "keyword.applies_to", undefined);
    fields.push(["keyword.applies_to", "input"]);
    expect((await post(app, "/guardrails/main", fields)).status).toBe(303);
    const narrowed = before.replace("beyond] }", "beyond], applies_to: [input] }");
    expect(await read("main")).toBe(narrowed);
    fields = set(formFields(await open(app, "main")), "keyword.applies_to", undefined);
    const res = await post(app, "/guardrails/main", fields);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain(
      '<div class="field-error" id="keyword-applies_to-error" role="alert"><ul><li>list input, output or both; to switch the guardrail off, set enabled: false</li></ul></div>',
    );
    expect(await read("main")).toBe(narrowed);
  });
});
