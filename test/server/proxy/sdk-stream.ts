/** What the official SDK yields for a streamed chat completion, read to its end. */
export interface ReadStream {
  /** Every chunk's content, joined. */
  readonly text: string;
  /** Each chunk's finish reason, in order, nulls and all (the last one is the stream's own). */
  readonly finishes: readonly (string | null | undefined)[];
}

interface ChunkLike {
  readonly choices: readonly { delta: { content?: string | null }; finish_reason?: string | null }[];
}

/** Reads a stream as an application would: the text it shows, and how each chunk says it ended. */
export async function readStream(stream: AsyncIterable<ChunkLike>): Promise<ReadStream> {
  let text = "";
  const finishes: (string | null | undefined)[] = [];
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? "";
    finishes.push(chunk.choices[0]?.finish_reason);
  }
  return { text, finishes };
}
