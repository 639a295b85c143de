import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { generateKey } from "../../src/config/keys.js";
import { loadConfig } from "../../src/config/load.js";
import { compileConfig } from "../../src/engine/compile-config.js";
import { type CheckResponse, createEngine, type Engine } from "../../src/engine/engine.js";
import { builtinGuardrails, type GuardrailRegistry } from "../../src/guardrails/registry.js";
import type { Encoder } from "../../src/models/encoder.js";
import { createApp } from "../../src/server/app.js";
import { loadOpenApiDocument } from "../../src/server/openapi.js";
import type { Limits, LogRecord } from "../../src/server/types.js";
import { documentedApp } from "../helpers/openapi/conformance.js";

export const APP_STRICT = "app_strict_000001";
export const APP_QUIET = "app_quiet_0000001";

/** Profiles: `main` (keyword, regex, pii on), `strict` (keyword only), `off` (nothing on). */
export function profileFiles(isDefault: boolean): Record<string, string> {
  return {
    "main.yaml": `name: main
default: ${isDefault}
guardrails:
  keyword: { enabled: true, keywords: [ignore previous instructions] }
  regex: { enabled: true, patterns: [{ name: swordfish, pattern: "\\\\bswordfish\\\\b", flags: i }] }
  pii: { enabled: true }
`,
    "strict.yaml": `name: strict
guardrails:
  keyword: { enabled: true, keywords: [purple elephant] }
`,
    "off.yaml": "name: off\n",
  };
}

export interface ConfigFixture {
  readonly dir: string;
  /** Two active keys (rotation in progress) and one revoked. */
  readonly keys: { readonly current: string; readonly next: string; readonly revoked: string };
  writeProfile(name: string, yaml: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function makeConfigDir({ withDefault = true, withKeys = true } = {}): Promise<ConfigFixture> {
  const dir = await mkdtemp(join(tmpdir(), "guardrail-server-"));
  const profiles = join(dir, "profiles");
  await mkdir(profiles);
  for (const [name, yaml] of Object.entries(profileFiles(withDefault)))
    await writeFile(join(profiles, name), yaml);
  await writeFile(
    join(dir, "apps.yaml"),
    `apps:\n  - { name: Strict bot, id: ${APP_STRICT}, profile: strict }\n  - { name: Quiet bot, id: ${APP_QUIET}, profile: off }\n`,
  );
  const [current, next, revoked] = [generateKey(), generateKey(), generateKey()];
  const entry = (k: typeof current, extra = "") =>
    `  - { id: ${k.record.id}, sha256: ${k.record.sha256}, created: "2025-01-01"${extra} }\n`;
  const keysYaml = withKeys
    ? `keys:\n${entry(current)}${entry(next)}${entry(revoked, ', revoked: "2025-02-01"')}`
    : "keys: []\n";
  await writeFile(join(dir, "keys.yaml"), keysYaml);
  return {
    dir,
    keys: { current: current.key, next: next.key, revoked: revoked.key },
    writeProfile: (name, yaml) => writeFile(join(profiles, name), yaml),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A test file's config directory and the headers that authenticate with its current key. */
export interface ServerSetup {
  readonly fixture: ConfigFixture;
  readonly key: string;
  readonly auth: Record<string, string>;
}

/**
 * Makes one config directory before a test file's tests and removes it after them. Read the
 * fields inside tests: they exist once `beforeAll` has run.
 */
export function useConfigDir(): ServerSetup {
  let made: ConfigFixture | undefined;
  beforeAll(async () => {
    made = await makeConfigDir();
  });
  afterAll(() => made?.cleanup());
  const fixture = () => {
    if (!made) throw new Error("useConfigDir: read the fixture inside a test");
    return made;
  };
  return {
    get fixture() {
      return fixture();
    },
    get key() {
      return fixture().keys.current;
    },
    get auth() {
      return { "X-API-Key": fixture().keys.current };
    },
  };
}

export interface TestAppOptions {
  readonly registry?: GuardrailRegistry;
  readonly engine?: Engine;
  readonly limits?: Partial<Limits>;
  /** For profiles with model-backed guardrails on: compiles them and runs them. */
  readonly encoder?: Encoder;
}

let openapi: Promise<Record<string, unknown>> | undefined;
const openapiDocument = () => (openapi ??= loadOpenApiDocument());

/**
 * The app over a fixture's config, with every log record captured. Every response its
 * `request()` returns has been validated against docs/openapi.yaml (test/helpers/openapi/).
 */
export async function makeApp(fixture: ConfigFixture, options: TestAppOptions = {}) {
  const registry = options.registry ?? builtinGuardrails;
  const { encoder } = options;
  const compiled = await compileConfig(await loadConfig(fixture.dir, registry), registry, encoder);
  const logs: LogRecord[] = [];
  const app = createApp({
    engine: options.engine ?? createEngine({ registry, ...(encoder ? { encoder } : {}) }),
    getConfig: () => compiled,
    log: (record) => logs.push(record),
    version: "test",
    openapi: await openapiDocument(),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return { app: documentedApp(app), logs };
}

export const INPUT = "/apikey/api/guardrail/v1/input-check";
export const OUTPUT = "/apikey/api/guardrail/v1/output-check";

/** A JSON POST with the given credentials; `body` objects are serialised, strings sent as-is. */
export function post(
  path: string,
  body: unknown,
  headers: Record<string, string | undefined> = {},
): [string, RequestInit] {
  const sent = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  return [
    path,
    {
      method: "POST",
      headers: { "content-type": "application/json", ...sent },
      body: typeof body === "string" ? body : JSON.stringify(body),
    },
  ];
}

/** A check endpoint's 200 body, typed. */
export const readCheck = async (res: Response) => (await res.json()) as CheckResponse;

/** Asserts the spec's error shape (docs/service-spec.md, "Errors"): a JSON body that is exactly `{ "error": message }`. */
export async function expectError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(await res.json()).toEqual({ error });
}
