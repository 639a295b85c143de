import { connect, type Socket } from "node:net";
import { afterEach } from "vitest";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/start.js";
import type { LogRecord } from "../../src/server/types.js";
import { expectDocumentedAnswers, recordRequests } from "../helpers/openapi/raw-exchanges.js";
import { type ConfigFixture, INPUT, makeConfigDir } from "./fixtures.js";

/** A real server on a free loopback port over a fresh config; stopped after each test. */
export interface TestServer {
  readonly server: RunningServer;
  readonly fixture: ConfigFixture;
  readonly logs: LogRecord[];
}

const cleanups: (() => Promise<unknown>)[] = [];
/** Call at the top level of a test file that starts servers. */
export function stopServersAfterEach(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
}

export async function startTestServer(options: Partial<StartOptions> = {}): Promise<TestServer> {
  const fixture = await makeConfigDir();
  cleanups.push(() => fixture.cleanup());
  const logs: LogRecord[] = [];
  const server = await startServer({
    configDir: fixture.dir,
    port: 0,
    watch: false,
    log: (record) => logs.push(record),
    ...options,
  });
  cleanups.push(() => server.close());
  return { server, fixture, logs };
}

/** Bytes of one HTTP/1.1 POST to input-check; `body` is sent as given, after the headers. */
export function rawPost(key: string, body: string, headers: Record<string, string> = {}): string {
  const lines = Object.entries({
    Host: "localhost",
    "Content-Type": "application/json",
    "X-API-Key": key,
    "Content-Length": String(Buffer.byteLength(body)),
    ...headers,
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST ${INPUT} HTTP/1.1\r\n${lines.join("")}\r\n${body}`;
}

/**
 * `allowHalfOpen` keeps sending after the server's FIN, as a client busy writing does. The
 * requests written are noted, so every response read with `received` or `nextResponse` is checked
 * against docs/openapi.yaml.
 */
export const open = (port: number, allowHalfOpen = false) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen }, () => resolve(socket));
    recordRequests(socket);
    socket.once("error", reject);
  });

/** Everything a connection received until it closed, how it closed, and when (ms after `since`). */
export interface Received {
  readonly text: string;
  readonly error: string | undefined;
  readonly ms: number;
}

/**
 * Collects from now on; resolves when the server (or the kernel) ends the connection, and rejects
 * when a whole response in what arrived is not one docs/openapi.yaml describes.
 */
export function received(socket: Socket, since = performance.now()): Promise<Received> {
  return new Promise((resolve, reject) => {
    let text = "";
    let error: string | undefined;
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.once("close", () => {
      const result = { text, error, ms: performance.now() - since };
      expectDocumentedAnswers(socket, parseResponses(text)).then(() => resolve(result), reject);
    });
  });
}

/**
 * Writes everything and only then starts reading, as Python's urllib does: what the server says
 * before the client is done sending has to wait in the client's buffer.
 */
export async function sendAllThenRead(port: number, data: string | Buffer): Promise<Received> {
  const socket = await open(port);
  socket.pause();
  const result = received(socket);
  await new Promise<void>((resolve) => socket.write(data, () => resolve()));
  socket.resume();
  return result;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The first response in raw bytes (Content-Length framed, as every answer here is). */
export function parseResponse(text: string): RawResponse {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no complete response in ${JSON.stringify(text.slice(0, 200))}`);
  return parseHead(text, end);
}

/** Every whole response in raw bytes, in order; a response cut short is left out. */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  for (let rest = text, end = rest.indexOf("\r\n\r\n"); end >= 0; end = rest.indexOf("\r\n\r\n")) {
    const response = parseHead(rest, end);
    const length = Number(response.headers["content-length"] ?? 0);
    if (rest.length < end + 4 + length) break;
    responses.push(response);
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

function parseHead(text: string, end: number): RawResponse {
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const length = Number(headers["content-length"] ?? 0);
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: text.slice(end + 4, end + 4 + length),
  };
}

/** Waits for one whole response on a connection that stays open (keep-alive). */
export function nextResponse(socket: Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      const response = parseResponse(text);
      const length = Number(response.headers["content-length"] ?? 0);
      if (Buffer.byteLength(response.body, "latin1") < length) return;
      socket.off("data", onData);
      expectDocumentedAnswers(socket, [response]).then(() => resolve(response), reject);
    };
    socket.on("data", onData);
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
