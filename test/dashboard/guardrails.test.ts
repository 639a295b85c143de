import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { guardrailsSection } from "../../src/dashboard/sections/guardrails.js";
import { CSRF, formSha, MAIN_YAML, makeConfig, post, sectionApp } from "./helpers/app.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup() {
  const config = await makeConfig();
  cleanups.push(config.cleanup);
  const app = sectionApp(guardrailsSection, config.dir);
  const file = (name: string) => join(config.dir, "profiles", `${name}.yaml`);
  return { app, dir: config.dir, file, read: (name: string) => readFile(file(name), "utf8") };
}

/** The form's fields as the page renders them (a browser submitting it unchanged sends these). */
function formFields(page: string): [string, string][] {
  const fields: [string, string][] = [];
  for (const m of page.matchAll(/<input ([^>]*)>/g)) {
    const attrs = m[1] ?? "";
    const name = /name="([^"]+)"/.exec(attrs)?.[1];
    if (!name || name === "csrf") continue;
    const type = /type="([^"]+)"/.exec(attrs)?.[1];
    if (type === "checkbox") {
      if (/ checked/.test(attrs)) fields.push([name, /value="([^"]*)"/.exec(attrs)?.[1] ?? "on"]);
    } else fields.push([name, unescapeHtml(/value="([^"]*)"/.exec(attrs)?.[1] ?? "")]);
  }
  for (const m of page.matchAll(/<textarea [^>]*name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g))
    fields.push([m[1] ?? "", unescapeHtml(m[2] ?? "")]);
  for (const m of page.matchAll(/<select [^>]*name="([^"]+)"[^>]*>(.*?)<\/select>/gs)) {
    fields.push([m[1] ?? "", /<option value="([^"]*)" selected/.exec(m[2] ?? "")?.[1] ?? ""]);
  }
  return fields;
}
const unescapeHtml = (s: string) =>
  s
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
const set = (fields: [string, string][], name: string, value: string | undefined) => {
  const rest = fields.filter(([n]) => n !== name);
  return value === undefined ? rest : [...rest, [name, value] as [string, string]];
};

async function open(app: ReturnType<typeof sectionApp>, name: string) {
  const res = await app.request(`/guardrails/${name}`);
  expect(res.status).toBe(200);
  return res.text();
}

describe("Guardrails section", () => {
  it("lists the profiles with the default marked", async () => {
    const { app } = await setup();
    const page = await (await app.request("/guardrails")).text();
    expect(page).toContain('<a href="/guardrails/main">main</a>');
    expect(page).toMatch(/main<\/a><\/th>\s*<td><span class="badge" aria-label="default profile">default/);
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
    expect(page).toMatch(
      /id="content_moderation-threshold-help">Not set: the model&#39;s own threshold applies: 0\.48\./,
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

  it("refuses an invalid regex with the loader's message, tied to the input, and writes nothing", async () => {
    const { app, file, read } = await setup();
    const before = await read("main");
    const fields = set(formFields(await open(app, "main")), "regex.patterns.0.pattern", "(?<=a)b");
    const res = await post(app, "/guardrails/main", fields);
    expect(res.status).toBe(422);
    const page = await res.text();
    const message = `${file("main")}: guardrails.regex.patterns[0].pattern: pattern &quot;ticket&quot;: lookbehind (?&lt;=…) is not supported: patterns run on a linear-time engine (RE2 syntax, https://github.com/google/re2/wiki/Syntax)`;
    expect(page).toContain(message);
    expect(page).toContain('aria-describedby="regex-patterns-0-pattern-error" aria-invalid="true"');
    expect(page).toContain('<ul class="field-error" id="regex-patterns-0-pattern-error" role="alert">');
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
    expect(page).toContain("main.yaml: guardrails.llm.threshold: must be ≤ 1");
    expect(page).toContain(
      '<ul class="field-error" id="llm-threshold-error" role="alert"><li>must be ≤ 1</li></ul>',
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

  it("answers 404 for a profile that is not there", async () => {
    const { app } = await setup();
    expect((await app.request("/guardrails/nope")).status).toBe(404);
    expect((await post(app, "/guardrails/nope", [["sha256", "0"]])).status).toBe(404);
  });
  it("serves its script and stylesheet itself, and the page loads them from there", async () => {
    const { app } = await setup();
    const page = await open(app, "main");
    expect(page).toContain('<script src="/guardrails/assets/guardrails.js" defer></script>');
    expect(page).toContain('<link rel="stylesheet" href="/guardrails/assets/sections.css">');
    const js = await app.request("/guardrails/assets/guardrails.js");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await js.text()).toContain('"/guardrails/validate-regex"');
    const css = await app.request("/guardrails/assets/sections.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });
  it("shows a hand-broken file's problems under their inputs, and saves the fix", async () => {
    const { app, file, read } = await setup();
    await writeFile(file("main"), (await read("main")).replace("threshold: 0.50", "threshold: 2"));
    const list = await (await app.request("/guardrails")).text();
    expect(list).toContain("(does not load)");
    const page = await open(app, "main");
    expect(page).toContain("<h2>This file does not load as it is</h2>");
    expect(page).toContain(
      '<ul class="field-error" id="llm-threshold-error" role="alert"><li>must be ≤ 1</li></ul>',
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
      '<ul class="field-error" id="keyword-applies_to-error" role="alert"><li>list input, output or both; to switch the guardrail off, set enabled: false</li></ul>',
    );
    expect(await read("main")).toBe(narrowed);
  });
});
