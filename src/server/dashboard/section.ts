import type { Context, Hono } from "hono";
import type { GuardrailRegistry } from "../../guardrails/registry.js";

/** What every section's routes may use; the dashboard builds it once at start. */
export interface DashboardDeps {
  readonly configDir: string;
  readonly registry: GuardrailRegistry;
  readonly now: () => Date;
}

/** Set by the session middleware before any section route runs. */
export type DashboardEnv = { Variables: { csrfToken: string } };

/** The page shell: title, the active nav entry and the section's already-escaped body HTML. */
export type RenderPage = (
  c: Context<DashboardEnv>,
  page: {
    readonly title: string;
    readonly section: SectionId;
    readonly body: string;
    readonly status?: number;
  },
) => Response | Promise<Response>;

export type SectionId = "org" | "apps" | "guardrails" | "try" | "reports";

/** A dashboard section mounts its own routes under its own prefix (`/guardrails`, `/reports`, ...). */
export interface Section {
  readonly id: SectionId;
  readonly label: string;
  readonly path: string;
  register(app: Hono<DashboardEnv>, deps: DashboardDeps, render: RenderPage): void;
}
