import type { EventEmitter } from "node:events";
import { render } from "ink";
import type { BatchEvents, BatchSummary, Progress } from "../../eval/summary.js";
import { BatchView } from "./BatchView.js";

export interface InkViewOptions {
  /** False with NO_COLOR: the view then draws without colour or bold. */
  readonly color: boolean;
  /** The run's stop signal: once aborted the view says it is finishing the rows in flight. */
  readonly signal?: AbortSignal;
  /** Where to draw; process.stdout by default. */
  readonly stdout?: NodeJS.WriteStream;
}

export interface InkView {
  /** Draws the final progress and the summary table, then releases the terminal. */
  finish(summary: BatchSummary): Promise<void>;
  /** Releases the terminal without a summary (the run failed); safe after `finish`. */
  close(): void;
}

export type BatchEventSource = Pick<EventEmitter<BatchEvents>, "on" | "off">;

/**
 * Follows a batch run's progress events in an ink view. Ctrl-C is left to the command (ink reads
 * no keys here, so the terminal still turns it into SIGINT and the runner stops cleanly).
 */
export function runInkView(events: BatchEventSource, options: InkViewOptions): InkView {
  const stdout = options.stdout ?? process.stdout;
  let progress: Progress | null = null;
  let stopping = options.signal?.aborted === true;
  let closed = false;
  const barWidth = Math.max(10, Math.min(40, (stdout.columns ?? 80) - 50));
  const view = (summary: BatchSummary | null) => (
    <BatchView
      progress={progress}
      summary={summary}
      stopping={stopping}
      color={options.color}
      barWidth={barWidth}
    />
  );
  const instance = render(view(null), { stdout, exitOnCtrlC: false, patchConsole: false });
  const onProgress = (p: Progress) => {
    progress = p;
    instance.rerender(view(null));
  };
  const onAbort = () => {
    stopping = true;
    instance.rerender(view(null));
  };
  events.on("progress", onProgress);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const detach = () => {
    events.off("progress", onProgress);
    options.signal?.removeEventListener("abort", onAbort);
  };
  return {
    async finish(summary) {
      if (closed) return;
      closed = true;
      detach();
      instance.rerender(view(summary));
      instance.unmount();
      await instance.waitUntilExit();
    },
    close() {
      if (closed) return;
      closed = true;
      detach();
      instance.unmount();
    },
  };
}
