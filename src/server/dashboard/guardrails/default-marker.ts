import type { FileEdits } from "../../../config/profile-save.js";
import type { YamlEdit } from "../../../config/yaml-edit.js";
import type { ProfileEntry } from "./profiles.js";

/**
 * The files a save writes when it also moves the default marker: at most one profile may be the
 * default, and moving it changes two files, which no rename makes atomic together. The file that
 * gains the marker is written first. Between the two writes the directory has two defaults, which
 * the loader refuses: a watching server keeps serving the last good config (the old default) and
 * reloads once the old file is cleared. Clearing first would instead let a reload succeed with no
 * default at all, and requests without X-App-ID would be refused meanwhile. Both files are validated
 * together before either is written, so the end state always loads.
 */
export function withDefaultMarker(
  profiles: readonly ProfileEntry[],
  target: ProfileEntry,
  sha256: string,
  edits: readonly YamlEdit[],
  makeDefault: boolean,
): FileEdits[] {
  const own = makeDefault === target.isDefault ? [] : [{ path: ["default"], value: makeDefault }];
  const changes: FileEdits[] = [{ file: target.file, sha256, edits: [...edits, ...own] }];
  if (!makeDefault || target.isDefault) return changes;
  for (const other of profiles) {
    if (other.file !== target.file && other.isDefault)
      changes.push({ file: other.file, sha256: other.sha256, edits: [{ path: ["default"], value: false }] });
  }
  return changes;
}
