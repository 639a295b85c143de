import { parseDocument } from "yaml";
import { UsageError } from "../errors.js";
import { applyYamlEdit, type YamlEdit } from "./yaml-edit.js";
import { renderFlow } from "./yaml-render.js";

export type { YamlEdit } from "./yaml-edit.js";

/**
 * Applies edits to a profile's YAML text, each in place (see yaml-edit.ts), in order: the file
 * keeps its comments, blank lines, flow lists and long lines wherever no value changed. The one
 * code path behind `batch --write-profile` and the dashboard, so both write files alike.
 */
export function editProfileText(file: string, text: string, edits: readonly YamlEdit[]): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UsageError(`${file}: invalid YAML: ${doc.errors[0]?.message}`);
  let out = text;
  for (const edit of edits) {
    const next = applyYamlEdit(out, edit);
    if (next === undefined) {
      const what =
        edit.value === undefined ? "remove it by hand" : `set it by hand to ${renderFlow(edit.value)}`;
      throw new UsageError(`${file}: cannot place ${edit.path.join(".")}; ${what}`);
    }
    out = next;
  }
  return out;
}
