import type { z } from "zod";
import { GUARDRAIL_IDS } from "../guardrails/types.js";
import { type Locate, nowhere } from "./yaml-locate.js";

/**
 * Turns zod issues into `file:line:col: field.path: message` lines, with the fix where one is
 * obvious; without a `locate` for the file's text, `file: field.path: message`.
 */
export function formatIssues(
  file: string,
  issues: readonly z.core.$ZodIssue[],
  locate: Locate = nowhere,
): string[] {
  return issues.flatMap((issue) => {
    const path = issuePath(issue.path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => {
        const where = path ? `${path}.${key}` : key;
        const hint =
          path === "guardrails"
            ? `; known guardrails: ${GUARDRAIL_IDS.join(", ")}`
            : "; remove it or check its spelling";
        return `${file}${locate(issue.path, key)}: ${where}: unknown field${hint}`;
      });
    }
    return [`${file}${locate(issue.path)}: ${path || "(top level)"}: ${issue.message}`];
  });
}

/** A zod path as written in messages: `guardrails.llm.threshold`, `messages[2].role`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i ? `.${String(part)}` : String(part)))
    .join("");
}
