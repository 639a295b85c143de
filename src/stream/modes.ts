/**
 * When the stream guard releases text and how often it checks it (docs/streaming.md#modes has each
 * one's cost and risk): `chunk` checks every chunk before releasing it, `sentence` (the default)
 * releases whole sentences as checks pass them, `final` releases text as it arrives and checks it
 * once at the end. A module of its own, importing nothing, so the CLI's flag parsers can read it.
 */
export type StreamMode = "chunk" | "sentence" | "final";
export const STREAM_MODES: readonly StreamMode[] = ["chunk", "sentence", "final"];
