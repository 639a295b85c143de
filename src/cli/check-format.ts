import type { CheckOutcome } from "../engine/engine.js";
import type { CheckMode, GuardrailId } from "../guardrails/types.js";
import { list, type Paint, table } from "./output.js";

export interface VerdictContext {
  readonly mode: CheckMode;
  readonly profile: string;
  readonly app?: string;
  readonly onError: "block" | "allow";
  /** Which profile file and config directory the check used (see describeOrigin). */
  readonly origin?: string;
}

type Entry = Record<string, unknown>;

const score = (value: unknown) => (typeof value === "number" ? value.toFixed(3) : undefined);

/** Whether the entry itself says it flagged; undefined for entries that carry only a score. */
function entryFlagged(entry: Entry): boolean | undefined {
  if (typeof entry.detected === "boolean") return entry.detected;
  if (typeof entry.unsafe === "boolean") return entry.unsafe;
  if (typeof entry.score === "number" && typeof entry.threshold === "number")
    return entry.score >= entry.threshold;
  return undefined;
}

/** What one guardrail found, in words: matches, entity types, scores, categories. */
function findings(entry: Entry): string {
  const parts: string[] = [];
  if (Array.isArray(entry.matched) && entry.matched.length > 0) parts.push(`matched: ${list(entry.matched)}`);
  if (Array.isArray(entry.entities) && entry.entities.length > 0)
    parts.push(`entities: ${list(entry.entities)}`);
  if (typeof entry.result === "string") parts.push(entry.result);
  if (typeof entry.category === "string" && entry.category) parts.push(entry.category);
  const s = score(entry.score);
  if (s !== undefined) {
    const t = score(entry.threshold);
    parts.push(t === undefined ? `score ${s}` : `score ${s} (threshold ${t})`);
  }
  return parts.join("; ");
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
    rows.push([id, status, findings(entry) || (flagged ? "" : "nothing found")]);
  }
  if (rows.length === 0) return `${out}  ${p.dim("no guardrail is enabled for this check")}\n`;
  out += table(rows).replace(/^(?=.)/gm, "  ");
  return out;
}
