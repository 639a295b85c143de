import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { guardrailsSection } from "../../../src/server/dashboard/sections/guardrails.js";
import { makeConfig, sectionApp } from "./app.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The Guardrails section over a fresh config directory (main and strict), removed after the test. */
export async function setup() {
  const config = await makeConfig();
  cleanups.push(config.cleanup);
  const app = sectionApp(guardrailsSection, config.dir);
  const file = (name: string) => join(config.dir, "profiles", `${name}.yaml`);
  return { app, dir: config.dir, file, read: (name: string) => readFile(file(name), "utf8") };
}

/** The form's fields as the page renders them (a browser submitting it unchanged sends these). */
export function formFields(page: string): [string, string][] {
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
export const set = (fields: [string, string][], name: string, value: string | undefined) => {
  const rest = fields.filter(([n]) => n !== name);
  return value === undefined ? rest : [...rest, [name, value] as [string, string]];
};

export async function open(app: ReturnType<typeof sectionApp>, name: string) {
  const res = await app.request(`/guardrails/${name}`);
  expect(res.status).toBe(200);
  return res.text();
}
