import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { MODERATION_CATEGORIES } from "../../src/guardrails/content-moderation/model/index.js";
import { post } from "./helpers/app.js";
import { formFields, open, setup } from "./helpers/form.js";

const NAME = "content_moderation.categories";
const without = (fields: [string, string][], ...categories: string[]) =>
  fields.filter(([n, v]) => !(n === NAME && categories.includes(v)));

describe("Guardrails section: content_moderation categories", () => {
  it("shows every category as a labelled checkbox, all ticked when the profile lists none", async () => {
    const { app } = await setup();
    const page = await open(app, "main");
    const fieldset = page.slice(
      page.indexOf('id="g-content_moderation"'),
      page.indexOf('id="g-system_prompt_protection"'),
    );
    expect(fieldset).toContain(
      '<fieldset id="content_moderation-categories" aria-describedby="content_moderation-categories-help"><legend>Harm categories flagged</legend>',
    );
    for (const c of MODERATION_CATEGORIES)
      expect(fieldset).toMatch(
        new RegExp(
          `<label class="check described"><input type="checkbox" name="${NAME}" value="${c}" id="content_moderation-category-${c}" checked> ${c} <small>`,
        ),
      );
    const sent = formFields(page).filter(([n]) => n === NAME);
    expect(sent.map(([, v]) => v)).toEqual([...MODERATION_CATEGORIES]);
  });

  it("writes the ticked ones when one is unticked, keeping the rest of the file byte for byte", async () => {
    const { app, read } = await setup();
    const before = await read("main");
    const fields = without(formFields(await open(app, "main")), "SPECIALIZED_ADVICE");
    fields.push(["content_moderation.enabled", "on"]);
    expect((await post(app, "/guardrails/main", fields)).status).toBe(303);
    const listed = MODERATION_CATEGORIES.filter((c) => c !== "SPECIALIZED_ADVICE");
    expect(await read("main")).toBe(
      before.replace(
        "entities: [EMAIL_ADDRESS, US_SSN] }\n",
        `entities: [EMAIL_ADDRESS, US_SSN] }\n  content_moderation:\n    enabled: true\n    categories:\n${listed.map((c) => `      - ${c}\n`).join("")}`,
      ),
    );
    const page = await open(app, "main");
    expect(page).toContain(
      'value="SPECIALIZED_ADVICE" id="content_moderation-category-SPECIALIZED_ADVICE"> SPECIALIZED_ADVICE',
    );
    expect(page).toContain('value="HATE" id="content_moderation-category-HATE" checked> HATE');
  });

  it("edits a profile's own list in its flow style, and the list only", async () => {
    const { app, file, read } = await setup();
    const yaml =
      "name: strict\nguardrails:\n  content_moderation: { enabled: true, categories: [HATE, VIOLENCE] }   # two\n";
    await writeFile(file("strict"), yaml);
    const fields = formFields(await open(app, "strict"));
    expect(fields.filter(([n]) => n === NAME).map(([, v]) => v)).toEqual(["VIOLENCE", "HATE"]);
    // The same two, in the boxes' order rather than the file's: nothing to write.
    expect(await (await post(app, "/guardrails/strict", fields)).text()).toContain("Nothing changed");
    expect(await read("strict")).toBe(yaml);
    fields.push([NAME, "CYBERCRIME"]);
    expect((await post(app, "/guardrails/strict", fields)).status).toBe(303);
    expect(await read("strict")).toBe(yaml.replace("[HATE, VIOLENCE]", "[VIOLENCE, CYBERCRIME, HATE]"));
  });

  it("refuses unticking every category of a listed profile with the loader's message, and writes nothing", async () => {
    const { app, file, read } = await setup();
    await writeFile(
      file("strict"),
      "name: strict\nguardrails:\n  content_moderation:\n    enabled: true\n    categories: [HATE]\n",
    );
    const before = await read("strict");
    const res = await post(app, "/guardrails/strict", without(formFields(await open(app, "strict")), "HATE"));
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toMatch(
      /strict\.yaml:\d+:\d+: guardrails\.content_moderation\.categories: list at least one category, or set enabled: false to flag nothing/,
    );
    expect(page).toContain(
      '<div class="field-error" id="content_moderation-categories-error" role="alert"><ul>',
    );
    expect(await read("strict")).toBe(before);
  });
});
