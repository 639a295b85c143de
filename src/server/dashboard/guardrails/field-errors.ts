/**
 * Ties the loader's messages (`file:6:16: guardrails.llm.threshold: must be ≤ 1`) to the form's inputs,
 * whose ids are the field path joined with `-` (`llm-threshold`, `regex-patterns-0-pattern`). A
 * message about an item of a list (`keyword.keywords[2]`) goes to the list's input.
 */
export class FieldErrors {
  readonly #byField = new Map<string, string[]>();
  readonly all: readonly string[];

  constructor(file: string, messages: readonly string[]) {
    this.all = messages;
    for (const message of messages) {
      // After the file, the loader may give the line and column it read the field from.
      const located = message.startsWith(file) ? /^(:\d+:\d+)?: /.exec(message.slice(file.length)) : null;
      const rest = located ? message.slice(file.length + located[0].length) : undefined;
      const colon = rest?.indexOf(": ") ?? -1;
      if (rest === undefined || colon < 0) continue;
      const path = rest.slice(0, colon);
      const tokens = path
        .replace(/^guardrails\./, "")
        .split(/[.[\]]+/)
        .filter(Boolean);
      const text = rest.slice(colon + 2);
      // Filed under the path and each shorter prefix: an input asks for its own id.
      for (let n = tokens.length; n > 0; n--) {
        const id = tokens.slice(0, n).join("-");
        this.#byField.set(id, [...(this.#byField.get(id) ?? []), text]);
      }
    }
  }

  /** Messages about the field `id` or anything below it. */
  for(id: string): readonly string[] {
    return this.#byField.get(id) ?? [];
  }
}
