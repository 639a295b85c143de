import { Box, Static, Text } from "ink";
import type { BatchSummary, Progress } from "../../eval/summary.js";
import { LiveCounts } from "./LiveCounts.js";
import { ProgressBar } from "./ProgressBar.js";
import { SummaryTable } from "./SummaryTable.js";

export interface BatchViewProps {
  readonly progress: Progress | null;
  /** Set once the run is over: the final frame. */
  readonly summary: BatchSummary | null;
  /** Ctrl-C was pressed: the rows in flight are finishing. */
  readonly stopping: boolean;
  readonly color: boolean;
  readonly barWidth?: number;
}

/**
 * The live view while rows run, then the summary. The final frame goes through `Static`, which
 * ink writes once and never redraws: a summary taller than the terminal then scrolls normally
 * instead of making ink clear the screen on every frame.
 */
export function BatchView({ progress, summary, stopping, color, barWidth = 30 }: BatchViewProps) {
  const labelled =
    progress !== null &&
    progress.confusion.tp + progress.confusion.fp + progress.confusion.tn + progress.confusion.fn > 0;
  const live = (p: Progress) => (
    <Box flexDirection="column">
      <ProgressBar progress={p} color={color} width={barWidth} stopped={summary?.interrupted === true} />
      <LiveCounts progress={p} color={color} labelled={labelled || (summary?.labelled ?? 0) > 0} />
    </Box>
  );
  if (summary) {
    return (
      <Static items={[summary]}>
        {(s) => (
          <Box key="final" flexDirection="column">
            {progress ? live(progress) : null}
            <SummaryTable summary={s} color={color} />
          </Box>
        )}
      </Static>
    );
  }
  return (
    <Box flexDirection="column">
      {progress ? live(progress) : <Text dimColor={color}>starting…</Text>}
      {stopping ? (
        <Text color={color ? "yellow" : undefined}>
          stopping: finishing the rows in flight (Ctrl-C again to quit at once)
        </Text>
      ) : null}
    </Box>
  );
}
