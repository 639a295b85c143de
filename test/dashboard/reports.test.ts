import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderReport } from "../../src/eval/report/index.js";
import type { BatchSummary } from "../../src/eval/summary.js";
import { MAX_REPORT_BYTES } from "../../src/server/dashboard/reports/read-report.js";
import { reportsSection } from "../../src/server/dashboard/sections/reports.js";
import { sampleSummary } from "../eval/report/sample-summary.js";
import { CSRF, MAIN_YAML, makeConfig, post, sectionApp } from "./helpers/app.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup() {
  const config = await makeConfig();
  cleanups.push(config.cleanup);
  const app = sectionApp(reportsSection, config.dir);
  const file = (name: string) => join(config.dir, "profiles", `${name}.yaml`);
  return { app, file, read: (name: string) => readFile(file(name), "utf8") };
}

/** The sample run, as made on the `main` profile of a config directory (`--config .`). */
function summary(change: (s: BatchSummary) => void = () => {}): BatchSummary {
  const s = sampleSummary();
  s.profile = "main";
  s.profile_file = "profiles/main.yaml";
  s.config_dir = ".";
  s.config_source = "flag";
  change(s);
  return s;
}

function upload(app: ReturnType<typeof sectionApp>, name: string, content: string | Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.set("csrf", CSRF);
  form.set("report", new File([content], name));
  return app.request("/reports", { method: "POST", body: form });
}

/** The apply form's fields for `id`, as rendered in `page`. */
function applyFields(page: string, id: string): [string, string][] {
  const form = new RegExp(`<form class="apply" id="apply-${id}"(.*?)</form>`, "s").exec(page)?.[1] ?? "";
  const fields: [string, string][] = [];
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.push([m[1] ?? "", (m[2] ?? "").replaceAll("&quot;", '"').replaceAll("&amp;", "&")]);
  }
  fields.push(["profile", /<option value="([^"]+)" selected/.exec(form)?.[1] ?? ""]);
  return fields.filter(([name]) => name !== "csrf");
}

describe("Reports section", () => {
  it("shows each recommended threshold with precision, recall and FPR now and after", async () => {
    const { app } = await setup();
    const s = summary();
    const rec = s.guardrails.llm?.recommendation;
    const res = await upload(app, "summary.json", JSON.stringify(s));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<table class="figures" id="figures-llm">');
    expect(page).toContain(`<tr><th scope="row">Threshold</th><td>0.5</td><td>${rec?.threshold}</td></tr>`);
    const fpr = (x: number | null | undefined) => `${((x ?? 0) * 100).toFixed(1)}%`;
    expect(page).toContain(
      `<th scope="row">False-positive rate</th><td>${fpr(s.guardrails.llm?.standalone?.fpr)}</td><td>${fpr(rec?.at?.fpr)}</td>`,
    );
    expect(page).toContain('<option value="main" selected>main (the report&#39;s)</option>');
    expect(page).toContain("The run applied 0.5.</p>");
    const own = summary((s) => {
      const llm = s.guardrails.llm;
      if (llm) llm.threshold_source = "model";
    });
    const ownPage = await (await upload(app, "summary.json", JSON.stringify(own))).text();
    expect(ownPage).toContain("The run applied 0.5 (model&#39;s own).</p>");
    expect(page).toContain(`id="apply-llm-button">Apply ${rec?.threshold} to llm</button>`);
  });

  it("applies the recommendation to the report's profile in place, and shows before and after", async () => {
    const { app, read } = await setup();
    const s = summary();
    const threshold = s.guardrails.llm?.recommendation?.threshold;
    const page = await (await upload(app, "summary.json", JSON.stringify(s))).text();
    const res = await post(app, "/reports/apply", applyFields(page, "llm"));
    expect(res.status).toBe(200);
    const done = await res.text();
    expect(done).toContain(
      `<div class="notice ok" id="apply-status" role="status"><p>llm threshold ${threshold} written to profile main`,
    );
    expect(done).toContain('<table class="figures" id="figures-llm">');
    expect(await read("main")).toBe(MAIN_YAML.replace("threshold: 0.50", `threshold: ${threshold}`));
  });

  it("refuses a report made on another profile unless confirmed", async () => {
    const { app, read } = await setup();
    const before = await read("strict");
    const page = await (await upload(app, "summary.json", JSON.stringify(summary()))).text();
    const fields = applyFields(page, "llm").map(([k, v]): [string, string] => [
      k,
      k === "profile" ? "strict" : v,
    ]);
    const refused = await post(app, "/reports/apply", fields);
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain(
      "the report was made on profile main (file profiles/main.yaml), not on strict",
    );
    expect(await read("strict")).toBe(before);
    expect((await post(app, "/reports/apply", [...fields, ["confirm_profile", "on"]])).status).toBe(200);
    expect(await read("strict")).toMatch(/\n {2}llm:\n {4}threshold: 0\.\d+\n$/);
  });

  it("counts a run on the bundled profiles as made on another profile file, whatever its name", async () => {
    const { app, read } = await setup();
    const s = summary((s) => {
      s.config_dir = null;
      s.config_source = "bundled";
    });
    const page = await (await upload(app, "summary.json", JSON.stringify(s))).text();
    expect(page).not.toContain("(the report&#39;s)");
    const res = await post(app, "/reports/apply", applyFields(page, "llm"));
    expect(res.status).toBe(422);
    expect(await read("main")).toBe(MAIN_YAML);
  });

  it("refuses with 409 when the profile changed after the report was opened", async () => {
    const { app, file, read } = await setup();
    const page = await (await upload(app, "summary.json", JSON.stringify(summary()))).text();
    const edited = `${await read("main")}# edited meanwhile\n`;
    await writeFile(file("main"), edited);
    const res = await post(app, "/reports/apply", applyFields(page, "llm"));
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(`${file("main")} changed since this page was opened`);
    expect(await read("main")).toBe(edited);
  });

  it("asks before applying a threshold above 10% false positives", async () => {
    const { app, read } = await setup();
    const s = summary((s) => {
      const at = s.guardrails.llm?.recommendation?.at;
      if (at) at.fpr = 0.25;
    });
    const page = await (await upload(app, "summary.json", JSON.stringify(s))).text();
    expect(page).toContain('id="apply-llm-force"');
    const res = await post(app, "/reports/apply", applyFields(page, "llm"));
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("runs at 25.0% false positives");
    expect(await read("main")).toBe(MAIN_YAML);
    expect((await post(app, "/reports/apply", [...applyFields(page, "llm"), ["force", "on"]])).status).toBe(
      200,
    );
  });

  it("says why an upload cannot be read", async () => {
    const { app } = await setup();
    const cases: [string, string | Uint8Array<ArrayBuffer>, number, string][] = [
      ["garbage.json", "{not json", 422, "garbage.json: not JSON ("],
      [
        "page.html",
        "<!doctype html><html><body>report</body></html>",
        422,
        "page.html: this HTML page carries no batch figures",
      ],
      [
        "other.json",
        JSON.stringify({ version: 1, rows: "many" }),
        422,
        "not a guardrail batch summary: other.json: file: ",
      ],
      ["binary.json", new Uint8Array([0xff, 0xfe, 0x00, 0x41]), 422, "binary.json: not UTF-8 text"],
      ["big.json", new Uint8Array(MAX_REPORT_BYTES + 100 * 1024).fill(32), 413, "over the 1.5 MiB limit"],
    ];
    for (const [name, content, status, message] of cases) {
      const res = await upload(app, name, content);
      expect(res.status, name).toBe(status);
      const page = await res.text();
      expect(page, name).toContain('<div class="notice error" id="report-error" role="alert">');
      expect(page, name).toContain(message);
    }
  });

  it("opens the HTML report as it opens the summary, hostile text and all", async () => {
    const { app, read } = await setup();
    const s = summary((s) => {
      s.file = '"><script>alert(1)</script>.csv';
    });
    const html = renderReport(s);
    expect(html).not.toMatch(/<script/i);
    const res = await upload(app, "report.html", html);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("<h1>Report: &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;.csv</h1>");
    expect((await post(app, "/reports/apply", applyFields(page, "llm"))).status).toBe(200);
    const threshold = s.guardrails.llm?.recommendation?.threshold;
    expect(await read("main")).toBe(MAIN_YAML.replace("threshold: 0.50", `threshold: ${threshold}`));
  });

  it("says when a run recommends nothing", async () => {
    const { app } = await setup();
    const s = summary((s) => {
      for (const g of Object.values(s.guardrails)) delete g.recommendation;
    });
    const page = await (await upload(app, "summary.json", JSON.stringify(s))).text();
    expect(page).toContain('<p id="no-recommendations">');
  });
});
