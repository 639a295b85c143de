import { regexPattern } from "../../../guardrails/regex/settings.js";

/** What the live check answers: the loader's own messages, by the rule's field they are about. */
export interface RegexCheck {
  readonly valid: boolean;
  readonly errors: readonly { readonly field: string; readonly message: string }[];
}

const field = (v: unknown) => (typeof v === "string" ? v : undefined);

/**
 * Checks one rule with the profile schema's own `regexPattern` (RE2, the same flags check), so
 * the form shows while typing exactly what the loader, the CLI and a save would say.
 */
export function validateRegexRule(input: unknown): RegexCheck {
  const body = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const name = field(body.name);
  const rule = {
    ...(name ? { name } : {}),
    pattern: field(body.pattern) ?? "",
    flags: field(body.flags) ?? "",
    ...(field(body.on) ? { on: field(body.on) } : {}),
  };
  const parsed = regexPattern.safeParse(rule);
  if (parsed.success) return { valid: true, errors: [] };
  return {
    valid: false,
    errors: parsed.error.issues.map((issue) => ({
      field: String(issue.path[0] ?? "pattern"),
      message: issue.message,
    })),
  };
}
