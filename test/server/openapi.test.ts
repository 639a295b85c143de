import { readFile } from "node:fs/promises";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { CHECK_PATHS } from "../../src/server/app.js";
import { loadOpenApiDocument } from "../../src/server/openapi.js";
import { makeApp, useConfigDir } from "./fixtures.js";

const setup = useConfigDir();
const METHODS = ["get", "head", "post", "put", "patch", "delete", "options"] as const;

type Document = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };
const load = async () => (await loadOpenApiDocument()) as Document;
// validate() dereferences in place: it gets a copy.
const validated = (document: object) => validate(structuredClone(document) as never);

describe("docs/openapi.yaml", () => {
  it("is a valid OpenAPI 3.1 document, without warnings", async () => {
    const document = await load();
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = await validated(document);
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result).toMatchObject({ valid: true, specification: "OpenAPI", warnings: [] });
  });

  it("is refused by the validator once broken, so the test above can fail", async () => {
    const document = await load();
    const input = document.paths[CHECK_PATHS.input] as { post: { responses: Record<string, unknown> } };
    input.post.responses["200"] = { content: {} }; // a response without its required description
    expect((await validated(document)).valid).toBe(false);
    expect((await validated({ ...(await load()), openapi: "3.1.0", info: { title: "x" } })).valid).toBe(
      false,
    );
  });

  it("has the package's version", async () => {
    const { version } = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
    expect((await load()).info).toMatchObject({ version });
  });

  it("describes every check endpoint, and the server serves every path it lists", async () => {
    const document = await load();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(Object.values(CHECK_PATHS)));
    const { app } = await makeApp(setup.fixture);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS.filter((m) => m in item)) {
        // Unauthenticated and bodiless: any documented answer but "no such path" will do.
        const res = await app.request(path, { method: method.toUpperCase() });
        expect({ path, method, status: res.status }).not.toMatchObject({ status: 404 });
      }
    }
  });
});

describe("GET /openapi.json", () => {
  it("serves the YAML as JSON, without a key", async () => {
    const { app } = await makeApp(setup.fixture);
    const res = await app.request("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(await load());
    expect((await app.request("/openapi.json", { method: "HEAD" })).status).toBe(200);
  });

  it("answers other methods with 405", async () => {
    const { app } = await makeApp(setup.fixture);
    const res = await app.request("/openapi.json", { method: "POST", headers: setup.auth });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toEqual({ error: "Method not allowed" });
  });
});
