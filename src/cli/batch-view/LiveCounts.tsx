import { Box, Text } from "ink";
import type { Progress } from "../../eval/summary.js";

export interface LiveCountsProps {
  readonly progress: Progress;
  readonly color: boolean;
  /** False for an unlabelled file: flags only, no confusion counts or F1. */
  readonly labelled: boolean;
}

/** `flagged 123  tp 100  fp 23  tn 400  fn 17  F1 0.912`: mistakes in red, hits in green. */
export function LiveCounts({ progress: p, color, labelled }: LiveCountsProps) {
  const c = p.confusion;
  const tint = (good: boolean) => (color ? (good ? "green" : "red") : undefined);
  return (
    <Box gap={2}>
      <Text>flagged {p.flagged}</Text>
      {labelled ? (
        <>
          <Text color={tint(true)}>tp {c.tp}</Text>
          <Text color={tint(c.fp === 0)}>fp {c.fp}</Text>
          <Text color={tint(true)}>tn {c.tn}</Text>
          <Text color={tint(c.fn === 0)}>fn {c.fn}</Text>
          <Text bold={color}>F1 {p.f1 === null ? "–" : p.f1.toFixed(3)}</Text>
        </>
      ) : (
        <Text dimColor={color}>no labels</Text>
      )}
      {p.skipped > 0 ? <Text color={color ? "yellow" : undefined}>{p.skipped} invalid skipped</Text> : null}
    </Box>
  );
}
