import type { MessageResult } from "../engine/conversation/message-results.js";
import { describeEntry, entryFlagged } from "../engine/describe-check.js";
import type { CheckOutcome } from "../engine/engine.js";
import type { CheckMode, GuardrailId } from "../guardrails/types.js";
import { type Paint, table } from "./output.js";

export interface VerdictContext {
  readonly mode: CheckMode;
  readonly profile: string;
  readonly app?: string;
  readonly onError: "block" | "allow";
  /** Which profile file and config directory the check used (see describeOrigin). */
  readonly origin?: string;
}

/**
 * The terminal view of a check: the verdict and where it came from, then one row per enabled
 * guardrail. Guardrails the profile disables are left out; `--json` shows them.
 */
export function renderVerdict(outcome: CheckOutcome, where: VerdictContext, p: Paint): string {
  const { body, failures, flaggedBy } = outcome;
  const verdict = body.injection_detected ? p.bold(p.red("FLAGGED")) : p.bold(p.green("ALLOWED"));
  const source = where.app ? `app ${where.app}, profile ${where.profile}` : `profile ${where.profile}`;
  const ms = (body.execution_time * 1000).toFixed(1);
  let out = `${verdict}  ${where.mode}-check, ${source} ${p.dim(`(${ms} ms)`)}\n`;
  if (where.origin) out += `  ${p.dim(where.origin)}\n`;

  const rows: string[][] = [];
  for (const [id, entry] of Object.entries(body.checks)) {
    if (entry.enabled !== true) continue;
    const failure = failures.find((f) => f.guardrail === id);
    if (failure) {
      const effect = where.onError === "block" ? "counted as flagged" : "ignored";
      rows.push([id, p.yellow("error"), `${failure.error.message} (on_error: ${where.onError}, ${effect})`]);
      continue;
    }
    const flagged = entryFlagged(entry) ?? flaggedBy.includes(id as GuardrailId);
    const status = flagged === undefined ? "" : flagged ? p.red("flagged") : p.green("clean");
    // The body's vector entry has a score alone: the threshold it was judged against is shown too.
    const detail = outcome.details?.[id as GuardrailId];
    const shown =
      entry.threshold === undefined && detail?.threshold !== undefined
        ? { ...entry, threshold: detail.threshold }
        : entry;
    const described = describeEntry(shown) || (flagged ? "" : "nothing found");
    rows.push([id, status, detail?.note ? `${described}; ${p.dim(detail.note)}` : described]);
  }
  if (rows.length === 0) return `${out}  ${p.dim("no guardrail is enabled for this check")}\n`;
  out += table(rows).replace(/^(?=.)/gm, "  ");
  return out;
}

/** After a conversation's verdict: each message that was scanned, and what flagged it. */
export function renderMessages(messages: readonly MessageResult[], p: Paint): string {
  const rows = messages.map((m) => {
    const what = !m.scanned
      ? p.dim("not scanned")
      : m.flagged_by.length > 0
        ? p.red(`flagged by ${m.flagged_by.join(", ")}`)
        : p.green("clean");
    const skipped = m.skipped_parts > 0 ? p.dim(` (${m.skipped_parts} non-text part(s) skipped)`) : "";
    return [`message ${m.index}`, m.role, `${what}${skipped}`];
  });
  return `\n${table(rows).replace(/^(?=.)/gm, "  ")}`;
}
