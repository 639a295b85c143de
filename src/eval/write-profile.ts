import { editProfileText } from "../config/profile-edit.js";
import type { GuardrailId } from "../guardrails/types.js";

/**
 * Sets `guardrails.<id>.threshold` in a profile's YAML, editing the text in place (the dashboard's
 * profile edits share the code): the file stays byte for byte as it was outside the values
 * written. A threshold already there has its value replaced; a missing one is added to the
 * guardrail's mapping, block or flow, in the mapping's own layout.
 */
export function setThresholds(
  file: string,
  text: string,
  thresholds: Partial<Record<GuardrailId, number>>,
): string {
  const edits = Object.entries(thresholds).map(([id, value]) => ({
    path: ["guardrails", id, "threshold"],
    value,
  }));
  return editProfileText(file, text, edits);
}

/** A minimal unified-style line diff (LCS; profiles are small): `-` removed, `+` added, `…` skipped. */
export function lineDiff(before: string, after: string, context = 1): string {
  const a = before.split("\n");
  const b = after.split("\n");
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as Uint32Array;
      row[j] =
        a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const ops: { kind: " " | "-" | "+"; text: string; line: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: " ", text: a[i++] as string, line: j++ + 1 });
    else if (i < n && (j === m || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      ops.push({ kind: "-", text: a[i++] as string, line: j + 1 });
    } else ops.push({ kind: "+", text: b[j] as string, line: ++j });
  }
  const near = ops.map((_, k) =>
    ops.slice(Math.max(0, k - context), k + context + 1).some((o) => o.kind !== " "),
  );
  const out: string[] = [];
  ops.forEach((op, k) => {
    if (!near[k]) {
      if (out.at(-1) !== "…") out.push("…");
      return;
    }
    out.push(`${op.kind}${op.text}`);
  });
  while (out[0] === "…") out.shift();
  while (out.at(-1) === "…") out.pop();
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}
