/**
 * Whether `guardrail batch` shows the live terminal view. Kept apart from the view so that deciding
 * loads neither ink nor react: the command imports the view only when this says yes.
 */
export interface ViewConditions {
  /** process.stdout.isTTY: the view draws on stdout. */
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly json?: boolean;
  readonly quiet?: boolean;
}

const set = (value: string | undefined) =>
  value !== undefined && value !== "" && value !== "0" && value !== "false";

export function wantsInkView(c: ViewConditions): boolean {
  if (!c.isTTY || c.json === true || c.quiet === true) return false;
  // CI logs are files: redrawn frames would be noise. A dumb terminal cannot move the cursor.
  return !set(c.env.CI) && c.env.TERM !== "dumb";
}
