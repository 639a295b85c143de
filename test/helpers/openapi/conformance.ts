// The hooks that hold every response the server's tests receive to docs/openapi.yaml: the
// in-process app (test/server/fixtures.ts), fetch against a real server, and raw sockets
// (test/server/sockets.ts). A response the document does not describe fails the test that got it.
import { loadOpenApiDocument } from "../../../src/server/openapi.js";
import { createResponseValidator, type Exchange, type ResponseValidator } from "./response-validator.js";

let validator: Promise<ResponseValidator> | undefined;
/** Built on first use, once per test file (vitest isolates modules per file). */
const documentValidator = () => (validator ??= loadOpenApiDocument().then(createResponseValidator));

/** How many responses were checked in this test file: lets a test see the hook ran. */
export const checkedResponses = { count: 0 };

export class UndocumentedResponseError extends Error {
  override readonly name = "UndocumentedResponseError";
}

/** Throws when docs/openapi.yaml does not describe this response to this request. */
export async function expectDocumented(exchange: Exchange, validate?: ResponseValidator): Promise<void> {
  const problems = (validate ?? (await documentValidator()))(exchange);
  checkedResponses.count++;
  if (problems.length === 0) return;
  const { method, path, status, body } = exchange;
  throw new UndocumentedResponseError(
    `docs/openapi.yaml does not describe ${method} ${path} → ${status}:\n  ${problems.join("\n  ")}\n` +
      `  received: ${body.slice(0, 300)}`,
  );
}

/** The request line of whatever fetch or app.request was given: a path, a URL or a Request. */
function target(input: string | URL | Request, init?: RequestInit) {
  const url = input instanceof Request ? input.url : String(input);
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  const path = new URL(url, "http://localhost").pathname;
  return {
    method: method.toUpperCase(),
    path,
    ...(typeof init?.body === "string" ? { requestBody: init.body } : {}),
  };
}

/** Reads a copy of the body, so the caller still gets the response untouched. */
async function checkResponse(request: ReturnType<typeof target>, response: Response) {
  const body = await response.clone().text();
  const headers = Object.fromEntries(response.headers);
  await expectDocumented({ ...request, status: response.status, headers, body });
  return response;
}

/** fetch, with each response checked against the document before the caller sees it. */
export const documentedFetch: typeof fetch = async (input, init) =>
  checkResponse(target(input, init), await fetch(input, init));

/** The same app whose `request()` checks each response (everything else is the app itself). */
export function documentedApp<App extends { request: (...args: never[]) => Response | Promise<Response> }>(
  app: App,
): App {
  const request = app.request as (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  const checked = async (input: string | URL | Request, init?: RequestInit) =>
    checkResponse(target(input, init), await request(input, init));
  return Object.assign(Object.create(app) as App, { request: checked });
}
