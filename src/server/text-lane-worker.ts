// The text lane's thread: a composition root of its own. It compiles the profiles the main thread
// sends (each reload sends them again) with the built-in guardrails, embeds through the main
// thread's encoder pool, and checks the long texts the main thread hands it, so their text work
// (windowing, n-grams, PII scans over 100,000 characters) never holds the server's event loop.
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import type { CompiledProfile } from "../engine/compile.js";
import { compileProfiles } from "../engine/compile-config.js";
import { createEngine } from "../engine/engine.js";
import { builtinGuardrails } from "../guardrails/registry.js";
import { remoteEncoder } from "../models/remote-encoder.js";
import { createUseLiteEncoder } from "../models/use-lite/encoder.js";
import type { LaneReply, LaneRequest } from "./text-lane.js";

const port = parentPort;
if (!port) throw new Error("text-lane-worker runs only inside a worker thread");
const { encoderPort } = workerData as { encoderPort: MessagePort };
// Tokenises here (windowing needs it synchronously); its session is never loaded.
const tokenizer = createUseLiteEncoder();
const encoder = remoteEncoder(encoderPort, tokenizer);
const registry = builtinGuardrails;
const engine = createEngine({ registry, encoder });
const post = (reply: LaneReply) => port.postMessage(reply);
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

let profiles: Promise<ReadonlyMap<string, CompiledProfile>> = Promise.resolve(new Map());
const running = new Map<number, AbortController>();

async function check(request: Extract<LaneRequest, { check: number }>): Promise<void> {
  const controller = new AbortController();
  running.set(request.check, controller);
  try {
    const profile = (await profiles).get(request.profile);
    if (!profile) throw new Error(`text lane: no profile "${request.profile}"`);
    const signal = controller.signal;
    const outcome =
      "messages" in request
        ? await engine.checkMessages(request.messages, profile, { signal })
        : await engine.check(request.mode, request.message, profile, request.prompt, {
            signal,
            ...(request.context === undefined ? {} : { context: request.context }),
            ...(request.systemPrompt === undefined ? {} : { systemPrompt: request.systemPrompt }),
          });
    post({
      checked: request.check,
      body: outcome.body,
      flaggedBy: outcome.flaggedBy,
      timings: outcome.timings,
      failures: outcome.failures.map((f) => ({
        guardrail: f.guardrail,
        name: f.error.name,
        message: f.error.message,
      })),
    });
  } catch (error) {
    post({ checked: request.check, error: message(error) });
  } finally {
    running.delete(request.check);
  }
}

port.on("message", (request: LaneRequest) => {
  if ("abort" in request) return running.get(request.abort)?.abort(new Error("client closed the connection"));
  if ("check" in request) return void check(request);
  // Checks that arrive while a reload compiles wait for it; a failed reload keeps the last profiles.
  const previous = profiles;
  const next = compileProfiles(request.profiles, registry, encoder);
  profiles = next.catch(() => previous);
  next.then(
    () => post({ reloaded: request.reload }),
    (error: unknown) => post({ reloaded: request.reload, error: message(error) }),
  );
});
