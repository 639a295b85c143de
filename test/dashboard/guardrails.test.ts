import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODERATION_THRESHOLD } from "../../src/guardrails/content-moderation/model/index.js";
import { CSRF, formSha, post } from "./helpers/app.js";
import { formFields, open, set, setup } from "./helpers/form.js";

describe("Guardrails section", () => {
  it("lists the profiles with the default marked", async () => {
    const { app } = await setup();
    const page = await (await app.request("/guardrails")).text();
    expect(page).toContain('<a href="/guardrails/main">main</a>');
    expect(page).toMatch(/main<\/a><\/th>\s*<td><span class="badge">default/);
    expect(page).toMatch(/strict<\/a><\/th>\s*<td><\/td>/);
  });

  it("renders every guardrail with labelled inputs, the csrf token and the file's hash", async () => {
    const { app } = await setup();
    const page = await open(app, "main");
    for (const id of [
      "llm",
      "vector",
      "keyword",
      "regex",
      "pii",
      "content_moderation",
      "system_prompt_protection",
    ])
      expect(page).toContain(`<fieldset class="guardrail" id="g-${id}"><legend>${id}</legend>`);
    expect(page).toContain('<label for="llm-threshold">Threshold</label>');
    expect(page).toContain(`data-csrf="${CSRF}"`);
    expect(formSha(page)).toMatch(/^[0-9a-f]{64}$/);
    expect(page).toContain(
      'id="regex-patterns-0-pattern" name="regex.patterns.0.pattern" type="text" value="\\bTICKET-[0-9]{5}\\b"',
    );
    // A profile that leaves content_moderation's threshold out shows the model's own.
    expect(page).toContain(
      `id="content_moderation-threshold-help">Not set: the model&#39;s own threshold applies: ${DEFAULT_MODERATION_THRESHOLD}.`,
    );
  });

  it("saving the form unchanged writes nothing", async () => {
    const { app, read } = await setup();
    const before = await read("main");
    const page = await open(app, "main");
    const res = await post(app, "/guardrails/main", formFields(page));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Nothing changed");
    expect(await read("main")).toBe(before);
  });

  it("saving a PII list written in another order than the boxes' unchanged writes nothing", async () => {
    const { app, file, read } = await setup();
    const yaml = "name: strict\nguardrails:\n  pii: { enabled: true, entities: [US_SSN, EMAIL_ADDRESS] }\n";
    await writeFile(file("strict"), yaml);
    const res = await post(app, "/guardrails/strict", formFields(await open(app, "strict")));
    expect(await res.text()).toContain("Nothing changed");
    expect(await read("strict")).toBe(yaml);
  });

  it("changes a threshold in place, byte for byte elsewhere, and says so", async () => {
    const { app, read } = await setup();
    const before = await read("main");
    const fields = set(formFields(await open(app, "main")), "llm.threshold", "0.72");
    const res = await post(app, "/guardrails/main", fields);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/guardrails/main?saved=1");
    expect(await read("main")).toBe(before.replace("threshold: 0.50", "threshold: 0.72"));
    expect(await (await app.request("/guardrails/main?saved=1")).text()).toContain(
      '<div class="notice ok" id="save-status" role="status"><p>Saved.</p></div>',
    );
  });

  it("edits keywords, a regex rule, PII types and turns a guardrail on, keeping the rest of the file", async () => {
    const { app, read } = await setup();
    const before = await read("main");
    let fields = formFields(await open(app, "main"));
    fields = set(fields, "keyword.keywords", "ignore previous instructions\r\ndeveloper mode");
    fields = set(fields, "regex.patterns.1.name", "order");
    fields = set(fields, "regex.patterns.1.pattern", "\\bORD-[0-9]+\\b");
    fields = set(fields, "pii.entities", undefined);
    fields.push(["pii.entities", "EMAIL_ADDRESS"], ["content_moderation.enabled", "on"]);
    expect((await post(app, "/guardrails/main", fields)).status).toBe(303);
    expect(await read("main")).toBe(
      before
        .replace(/keywords: \[[^\]]*\]/, "keywords: [ignore previous instructions, developer mode]")
        .replace("flags: i\n", "flags: i\n      - name: order\n        pattern: \\bORD-[0-9]+\\b\n")
        .replace("- name: ticket   # internal ticket ids", "- name: ticket")
        .replace("entities: [EMAIL_ADDRESS, US_SSN]", "entities: [EMAIL_ADDRESS]")
        .replace(
          "  pii: { enabled: true, entities: [EMAIL_ADDRESS] }\n",
          "  pii: { enabled: true, entities: [EMAIL_ADDRESS] }\n  content_moderation:\n    enabled: true\n",
        ),
    );
  });

  it("edits the system prompt and canaries, block and flow, in their own styles", async () => {
    const { app, read } = await setup();
    const before = await read("strict");
    let fields = formFields(await open(app, "strict"));
    fields = set(fields, "system_prompt_protection.system_prompt", "You are a support bot.\r\nBe brief.\r\n");
    fields = set(fields, "system_prompt_protection.canaries", "cnry-5f2a9e\ncnry-0000");
    expect((await post(app, "/guardrails/strict", fields)).status).toBe(303);
    expect(await read("strict")).toBe(
      before
        .replace("Never share internal ticket ids.", "Be brief.")
        .replace("canaries: [cnry-5f2a9e]", "canaries: [cnry-5f2a9e, cnry-0000]"),
    );
  });

  it("moves the default marker: the new default gains it, the old one loses it", async () => {
    const { app, read } = await setup();
    const [main, strict] = [await read("main"), await read("strict")];
    const fields = [...formFields(await open(app, "strict")), ["default", "on"] as [string, string]];
    expect((await post(app, "/guardrails/strict", fields)).status).toBe(303);
    expect(await read("main")).toBe(main.replace("default: true", "default: false"));
    expect(await read("strict")).toBe(`${strict}default: true\n`);
    const list = await (await app.request("/guardrails")).text();
    expect(list).toMatch(/strict<\/a><\/th>\s*<td><span class="badge"/);
  });
  it("clears a threshold to the model's own and removes a rule, line and all", async () => {
    const { app, read } = await setup();
    const before = await read("main");
    let fields = set(formFields(await open(app, "main")), "llm.threshold", "");
    fields = set(set(fields, "regex.patterns.0.name", ""), "regex.patterns.0.pattern", "");
    fields = set(fields, "regex.enabled", undefined);
    expect((await post(app, "/guardrails/main", fields)).status).toBe(303);
    expect(await read("main")).toBe(
      before
        .replace("    threshold: 0.50\n", "")
        .replace("  regex:\n    enabled: true\n", "  regex:\n    enabled: false\n")
        .replace(/ {4}patterns:\n[\s\S]*?flags: i\n/, "    patterns: []\n"),
    );
    const page = await open(app, "main");
    expect(page).toMatch(/id="llm-threshold-help">Not set: the model&#39;s own threshold applies: 0\.\d+\./);
  });

  it("unticking the default leaves no default, and says nothing else changed", async () => {
    const { app, read } = await setup();
    const before = await read("main");
    const fields = set(formFields(await open(app, "main")), "default", undefined);
    expect((await post(app, "/guardrails/main", fields)).status).toBe(303);
    expect(await read("main")).toBe(before.replace("default: true", "default: false"));
  });

  it("escapes what the file says and what is typed", async () => {
    const { app, read } = await setup();
    const fields = set(
      formFields(await open(app, "main")),
      "keyword.keywords",
      "</textarea><script>alert(1)</script>",
    );
    expect((await post(app, "/guardrails/main", fields)).status).toBe(303);
    expect(await read("main")).toContain("keywords: [</textarea><script>alert(1)</script>]");
    const page = await open(app, "main");
    expect(page).not.toContain("<script>alert");
    expect(page).toContain("&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>");
  });

  it("loads its script from the dashboard's assets; the stylesheet is the shell's", async () => {
    const { app } = await setup();
    const page = await open(app, "main");
    expect(page).toContain('<script src="/assets/guardrails.js" defer></script>');
    expect(page).not.toContain("<link");
  });
});
