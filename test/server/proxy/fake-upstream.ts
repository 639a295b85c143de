import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake upstream received. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Resolves when the connection closed: `finished` false when it closed before the answer ended. */
  readonly closed: Promise<{ finished: boolean }>;
}

/** How the fake upstream answers one request. */
export type Reply =
  | { readonly json: string; readonly status?: number; readonly headers?: Record<string, string> }
  | {
      /** Raw event-stream text, written one piece at a time (a turn of the event loop between). */
      readonly sse: readonly string[];
      /** Keep the answer open after the last piece (a model still generating). */
      readonly holdOpen?: boolean;
    }
  | { readonly hang: true };

export interface FakeUpstream {
  /** The base URL the proxy is given: `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  readonly received: Received[];
  /** How the next requests are answered (default: a benign completion). */
  answer(reply: (request: Received) => Reply): void;
  close(): Promise<void>;
}

export const completion = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: "chatcmpl-fake1",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "fake-model",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    ...extra,
  });

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-fake2",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "fake-model",
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })}\n\n`;

/** An OpenAI-style stream of `pieces` of content: the role chunk, one chunk a piece, the finish, [DONE]. */
export function streamOf(pieces: readonly string[], { done = true } = {}): string[] {
  return [
    chunk({ role: "assistant", content: "" }),
    ...pieces.map((content) => chunk({ content })),
    ...(done ? [chunk({}, "stop"), "data: [DONE]\n\n"] : []),
  ];
}

/** A stream of one tool call whose arguments come in `pieces`. */
export function toolCallStream(name: string, pieces: readonly string[]): string[] {
  return [
    chunk({
      role: "assistant",
      content: null,
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name, arguments: "" } }],
    }),
    ...pieces.map((args) => chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] })),
    chunk({}, "tool_calls"),
    "data: [DONE]\n\n",
  ];
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function write(res: ServerResponse, reply: Reply) {
  if ("hang" in reply) return;
  if ("json" in reply) {
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(reply.json);
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const piece of reply.sse) {
    if (res.destroyed) return;
    res.write(piece);
    await nextTurn();
    await nextTurn();
  }
  if (!reply.holdOpen) res.end();
}

/** An OpenAI-compatible upstream on loopback, answering what each test tells it to. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const received: Received[] = [];
  let replyTo: (request: Received) => Reply = () => ({ json: completion("Paris is the capital of France.") });
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const piece of req.setEncoding("utf8")) body += piece;
    const closed = new Promise<{ finished: boolean }>((resolve) =>
      res.once("close", () => resolve({ finished: res.writableFinished })),
    );
    const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, closed };
    received.push(request);
    if (request.path === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model", owned_by: "test" }] }),
      );
      return;
    }
    await write(res, replyTo(request));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    received,
    answer: (reply) => {
      replyTo = reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
