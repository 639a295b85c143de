import { Box, Text } from "ink";
import type { Progress } from "../../eval/summary.js";
import { bar, duration, eta, rate } from "./format.js";

export interface ProgressBarProps {
  readonly progress: Progress;
  readonly color: boolean;
  /** Cells for the bar itself. */
  readonly width: number;
  /** The run was interrupted: the last figures stay, with no ETA. */
  readonly stopped?: boolean;
}

/** `▕███████▍      ▏ 54%  540/1000 rows  212 rows/s  ETA 2s` */
export function ProgressBar({ progress: p, color, width, stopped = false }: ProgressBarProps) {
  const fraction = p.total ? p.rows / p.total : 0;
  const left = eta(p.rows, p.total, p.rows_per_s);
  const done = p.total !== null && p.rows >= p.total;
  return (
    <Box gap={2}>
      {p.total === null ? null : (
        <Text>
          ▕<Text color={color ? (done ? "green" : "cyan") : undefined}>{bar(fraction, width)}</Text>▏
          {`${Math.floor(fraction * 100)}%`.padStart(5)}
        </Text>
      )}
      <Text>
        {p.rows}
        {p.total === null ? "" : `/${p.total}`} rows
      </Text>
      <Text>{rate(p.rows_per_s)} rows/s</Text>
      <Text dimColor={color}>
        {stopped
          ? `stopped after ${duration(p.elapsed_ms / 1000)}`
          : done
            ? `done in ${duration(p.elapsed_ms / 1000)}`
            : left === null
              ? ""
              : `ETA ${duration(left)}`}
      </Text>
    </Box>
  );
}
