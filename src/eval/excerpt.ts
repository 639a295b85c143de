// Values from a data file end up in error messages on a terminal: a header cell of 50 MB, or
// escape codes in a binary file, must neither flood it nor drive it.

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `value` as a message may quote it: control characters escaped (`\u001b`), cut to `max` characters. */
export function excerpt(value: string, max = 60): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return cut.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A list of names for a message: each an excerpt, at most `max` of them. */
export function excerptList(names: readonly string[], max = 20): string {
  if (names.length === 0) return "none";
  const shown = names
    .slice(0, max)
    .map((name) => (name.trim() === "" ? JSON.stringify(name) : excerpt(name)));
  return names.length > max ? `${shown.join(", ")}, … (${names.length} in all)` : shown.join(", ");
}
