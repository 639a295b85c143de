import { Box, Text } from "ink";
import type { BatchSummary } from "../../eval/summary.js";
import { renderSummary } from "../batch/print-summary.js";
import { paint } from "../output.js";

export interface SummaryTableProps {
  readonly summary: BatchSummary;
  readonly color: boolean;
}

/**
 * The verdict in a framed line, then the same summary tables the plain printer writes (one
 * source for both, so a TTY and a CI log never disagree).
 */
export function SummaryTable({ summary: s, color }: SummaryTableProps) {
  const failed = s.gates.filter((g) => !g.passed).length;
  const verdict = s.interrupted
    ? { text: `interrupted: summary of the ${s.rows} rows done`, tone: "yellow" }
    : failed > 0
      ? { text: `${failed} of ${s.gates.length} gates failed`, tone: "red" }
      : s.gates.length > 0
        ? { text: `all ${s.gates.length} gates passed`, tone: "green" }
        : { text: `${s.rows} rows evaluated`, tone: "cyan" };
  const f1 = s.metrics?.f1;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Box
        borderStyle="round"
        borderColor={color ? verdict.tone : undefined}
        paddingX={1}
        alignSelf="flex-start"
      >
        <Text bold={color} color={color ? verdict.tone : undefined}>
          {verdict.text}
        </Text>
        {f1 == null ? null : <Text>{`  ·  F1 ${f1.toFixed(3)}`}</Text>}
      </Box>
      <Text>{renderSummary(s, paint(color)).trimEnd()}</Text>
    </Box>
  );
}
