/**
 * One reader for every stream shape the guard accepts: an async or sync iterable or a web ReadableStream
 * of strings, bytes (UTF-8, decoded across chunk boundaries) or OpenAI-style chat completion
 * chunks. `cancel()` is how the guard stops the upstream request.
 */

/** An OpenAI-style chat completion chunk: the text is `choices[0].delta.content`. */
export interface ChatCompletionChunkLike {
  readonly choices?: ReadonlyArray<
    { readonly delta?: { readonly content?: string | null; readonly role?: string } | null } | undefined
  >;
}

export type StreamChunk = string | Uint8Array | ChatCompletionChunkLike;
export type StreamSource = AsyncIterable<StreamChunk> | Iterable<StreamChunk> | ReadableStream<StreamChunk>;

export interface TextReader {
  /** The next piece of text (possibly empty), or undefined at the end. */
  next(): Promise<string | undefined>;
  /** Stops the source: `return()` on its iterator, `cancel()` on a ReadableStream. */
  cancel(): Promise<void>;
}

function isReadableStream(source: StreamSource): source is ReadableStream<StreamChunk> {
  return typeof (source as ReadableStream).getReader === "function";
}

export function readText(source: StreamSource): TextReader {
  const decoder = new TextDecoder("utf-8");
  const decode = (chunk: StreamChunk): string => {
    if (typeof chunk === "string") return chunk;
    if (chunk instanceof Uint8Array) return decoder.decode(chunk, { stream: true });
    const content = chunk?.choices?.[0]?.delta?.content;
    return typeof content === "string" ? content : "";
  };
  let step: () => Promise<IteratorResult<StreamChunk>>;
  let stop: () => Promise<unknown>;
  if (isReadableStream(source)) {
    const reader = source.getReader();
    step = async () => {
      const { done, value } = await reader.read();
      return done ? { done: true, value: undefined } : { done: false, value };
    };
    stop = () => reader.cancel();
  } else {
    const iterator: AsyncIterator<StreamChunk> | Iterator<StreamChunk> =
      Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
    step = async () => iterator.next();
    stop = async () => iterator.return?.();
  }
  let ended = false;
  return {
    async next() {
      if (ended) return undefined;
      const result = await step();
      if (!result.done) return decode(result.value);
      ended = true;
      const rest = decoder.decode();
      return rest === "" ? undefined : rest;
    },
    async cancel() {
      if (ended) return;
      ended = true;
      await stop();
    },
  };
}
