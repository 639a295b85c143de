import { dereference } from "@readme/openapi-parser";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

/** One response as a test received it, with the request it answered. */
export interface Exchange {
  readonly method: string;
  /** The request target; a query string is ignored. Empty when no request line was sent. */
  readonly path: string;
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * The request body, when the test sent it as text. A 200 must answer one the document's
   * request schema accepts, and a 400 to JSON one it refuses: the request schemas are held to
   * what the server reads, too.
   */
  readonly requestBody?: string;
}

type Json = Record<string, unknown>;
interface ResponseObject {
  content?: Record<string, { schema?: Json }>;
  headers?: Record<string, { required?: boolean; schema?: Json }>;
}
type Responses = Record<string, ResponseObject>;

const asObject = (value: unknown): Json | undefined =>
  typeof value === "object" && value !== null ? (value as Json) : undefined;

/**
 * What the document says of a request: the responses it may get (its operation's, else the path's
 * `x-other-methods`, as a route that exists answers 405, else `x-unmatched-requests`: no such
 * path, or no request line at all; those two extensions are the document's own, not guesses
 * here) and the JSON body it takes.
 */
function operationFor(document: Json, method: string, path: string) {
  const item = asObject(asObject(document.paths)?.[path.split("?")[0] ?? ""]);
  const operation = asObject(item?.[method.toLowerCase()]);
  const fallback = item ? asObject(item["x-other-methods"]) : asObject(document["x-unmatched-requests"]);
  const content = asObject(asObject(operation?.requestBody)?.content);
  return {
    responses: (asObject(operation?.responses) ?? asObject(fallback?.responses) ?? {}) as Responses,
    requestSchema: asObject(asObject(content?.["application/json"])?.schema),
  };
}

function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

const mediaType = (header: string | undefined) => header?.split(";")[0]?.trim().toLowerCase() ?? "";

/**
 * Checks responses against the OpenAPI document: the status is one the document lists for that
 * request, the content type one it lists, the body valid against its schema (JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1) and the required headers present. Returns what is wrong, if anything.
 */
export async function createResponseValidator(document: Json) {
  // Dereferenced once, so each schema compiles alone; a copy, as dereference() rewrites in place.
  const resolved = (await dereference(structuredClone(document) as never)) as Json;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const compiled = new WeakMap<Json, ValidateFunction>();
  const compile = (schema: Json) => {
    const known = compiled.get(schema);
    if (known) return known;
    const validate = ajv.compile(schema);
    compiled.set(schema, validate);
    return validate;
  };
  const schemaErrors = (schema: Json | undefined, value: unknown, where: string) => {
    if (!schema) return [];
    const validate = compile(schema);
    if (validate(value)) return [];
    return [`${where}: ${ajv.errorsText(validate.errors, { dataVar: where })}`];
  };

  const requestProblems = (schema: Json | undefined, { status, requestBody }: Exchange) => {
    const request = requestBody === undefined ? undefined : parsed(requestBody);
    if (!schema || !request || (status !== 200 && status !== 400)) return [];
    const refused = schemaErrors(schema, request.value, "request");
    if (status === 200) return refused.map((problem) => `answered 200, but the document refuses ${problem}`);
    return refused.length > 0 ? [] : ["answered 400, but the document accepts this request body"];
  };

  return (exchange: Exchange): string[] => {
    const { method, path, status, headers, body } = exchange;
    const { responses, requestSchema } = operationFor(resolved, method, path);
    const response = responses[String(status)];
    if (!response) {
      const listed = Object.keys(responses).join(", ") || "none";
      return [`status ${status} is not documented for ${method} ${path} (documented: ${listed})`];
    }
    const problems = requestProblems(requestSchema, exchange);
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`header ${name} is required`);
      } else problems.push(...schemaErrors(header.schema, value, `header ${name}`));
    }
    if (!response.content) {
      if (body !== "") problems.push(`a body was sent where the document has none: ${body.slice(0, 200)}`);
      return problems;
    }
    const type = mediaType(headers["content-type"]);
    const content = response.content[type];
    if (!content) return [...problems, `content type "${type}" is not documented for ${status}`];
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [...problems, `the body is not JSON: ${body.slice(0, 200)}`];
    }
    return [...problems, ...schemaErrors(content.schema, value, "body")];
  };
}

export type ResponseValidator = Awaited<ReturnType<typeof createResponseValidator>>;
