import type { Encoder } from "../../models/encoder.js";
import type { Section } from "./section.js";
import { appsSection } from "./sections/apps.js";
import { guardrailsSection } from "./sections/guardrails.js";
import { orgSection } from "./sections/org.js";
import { reportsSection } from "./sections/reports.js";
import { createTrySection } from "./sections/try.js";

/**
 * The dashboard's sections in nav order (Org Settings, Apps, Guardrails, Try it, Reports): each
 * mounts its own routes (see section.ts), all behind the session and CSRF middleware. Adding one
 * is one line here: `guardrailsSection` after Apps, `reportsSection` last.
 */
export function dashboardSections(options: { readonly encoder?: () => Promise<Encoder> } = {}): Section[] {
  return [orgSection, appsSection, guardrailsSection, createTrySection(options), reportsSection];
}
