import type { Deadline } from "./upstream.js";

/** One server-sent event as the upstream wrote it, and its `data` lines joined. */
export interface SseEvent {
  readonly raw: string;
  readonly data?: string;
}

// An event ends at a blank line; the three line endings the format allows, not mixed within one.
const EVENT_END = /\r\n\r\n|\n\n|\r\r/;

function parse(raw: string): SseEvent {
  const data = raw
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
  return data.length > 0 ? { raw, data: data.join("\n") } : { raw };
}

/**
 * The events of an event stream (https://html.spec.whatwg.org/multipage/server-sent-events.html),
 * each with its exact text so it can be passed on unchanged. Each read restarts `timer`; when it
 * runs out the read fails with its reason.
 */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  timer: Deadline,
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const expired = new Promise<never>((_resolve, reject) => {
    timer.signal.addEventListener("abort", () => reject(timer.signal.reason), { once: true });
  });
  expired.catch(() => {});
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), expired]);
      if (done) break;
      timer.restart();
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.search(EVENT_END); end >= 0; end = buffer.search(EVENT_END)) {
        const length = (EVENT_END.exec(buffer)?.[0].length ?? 2) + end;
        yield parse(buffer.slice(0, length));
        buffer = buffer.slice(length);
      }
    }
    buffer += decoder.decode();
    if (buffer !== "") yield parse(buffer);
  } finally {
    timer.stop();
    reader.cancel().catch(() => {});
  }
}
