import { readFile } from "node:fs/promises";
import { parse } from "yaml";

/** docs/openapi.yaml, two levels up from both src/server and dist/server; it ships in the package. */
export const OPENAPI_FILE = new URL("../../docs/openapi.yaml", import.meta.url);

/**
 * The interface's OpenAPI document, parsed once: the server answers GET /openapi.json with it, and
 * the tests validate every response they receive against the same file, so what is served is what
 * is tested. The YAML stays the one hand-written source; there is no generated copy to drift.
 */
export async function loadOpenApiDocument(
  file: URL | string = OPENAPI_FILE,
): Promise<Record<string, unknown>> {
  const document: unknown = parse(await readFile(file, "utf8"));
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new Error(`${String(file)}: not an OpenAPI document (expected a mapping at the top)`);
  }
  return document as Record<string, unknown>;
}
