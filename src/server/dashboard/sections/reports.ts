import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { h } from "../guardrails/markup.js";
import { listProfiles } from "../guardrails/profiles.js";
import { applyRecommendation } from "../reports/apply.js";
import { figuresTable, reportView, uploadForm } from "../reports/pages.js";
import { MAX_REPORT_BYTES, ReportError, readReport } from "../reports/read-report.js";
import { recommendationRows } from "../reports/recommendations.js";
import type { DashboardEnv, RenderPage, Section } from "../section.js";

type Ctx = Context<DashboardEnv>;

const page = (c: Ctx, render: RenderPage, body: string, status = 200, title = "Reports") =>
  render(c, { title, section: "reports", body, status });

const TOO_BIG = `the upload is over the ${MAX_REPORT_BYTES / 1024 / 1024} MiB limit; upload the HTML report or the --json summary of a batch run`;

/** Reports: a batch summary's recommended thresholds, with before/after figures, applied in one click. */
export const reportsSection: Section = {
  id: "reports",
  label: "Reports",
  path: "/reports",
  register(app, deps, render) {
    app.get("/reports", (c) => page(c, render, String(uploadForm(c.get("csrfToken")))));
    app.post(
      "/reports",
      // The form's other fields are a few hundred bytes: refused before the body is read whole.
      bodyLimit({
        maxSize: MAX_REPORT_BYTES + 64 * 1024,
        onError: (c) => page(c as Ctx, render, String(uploadForm((c as Ctx).get("csrfToken"), TOO_BIG)), 413),
      }),
      async (c) => {
        const csrf = c.get("csrfToken");
        const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const upload = body.report;
        if (!(upload instanceof File) || upload.size === 0) {
          return page(c, render, String(uploadForm(csrf, "choose a batch summary file to open")), 422);
        }
        try {
          const summary = readReport(upload.name, new Uint8Array(await upload.arrayBuffer()));
          const profiles = await listProfiles(deps.configDir);
          const view = reportView(csrf, summary, recommendationRows(summary), profiles);
          return page(c, render, String(view), 200, `Report: ${summary.file}`);
        } catch (error) {
          if (!(error instanceof ReportError)) throw error;
          return page(c, render, String(uploadForm(csrf, error.message)), error.status);
        }
      },
    );
    app.post("/reports/apply", async (c) => {
      const outcome = await applyRecommendation(deps, await c.req.parseBody());
      if (!outcome.ok) {
        const body = h`<div class="notice error" id="apply-error" role="alert"><p>${outcome.message}</p></div>
<p>Nothing was written. <a href="/reports">Open the report again</a> to see the profile as it is now.</p>`;
        return page(c, render, String(body), outcome.status, "Not applied");
      }
      const body = h`<div class="notice ok" id="apply-status" role="status"><p>${outcome.id} threshold ${outcome.threshold} written to profile ${outcome.profile} (<code>${outcome.file}</code>).</p></div>
${outcome.figures ? figuresTable(outcome.id, outcome.figures.before, outcome.figures.after) : ""}
<p><a href="/guardrails/${encodeURIComponent(outcome.profile)}">Open profile ${outcome.profile}</a> · <a href="/reports">Open another report</a></p>`;
      return page(c, render, String(body), 200, "Applied");
    });
  },
};
