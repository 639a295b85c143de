import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { HttpError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import { writeFileAtomic } from "./files.js";
import { loadConfig } from "./load.js";
import { editProfileText, type YamlEdit } from "./profile-edit.js";

/** A profile file's text and the SHA-256 of its bytes, as a form was rendered from it. */
export interface ProfileText {
  readonly file: string;
  readonly text: string;
  readonly sha256: string;
}

export const sha256Text = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

export async function readProfileText(file: string): Promise<ProfileText> {
  const text = await readFile(file, "utf8");
  return { file, text, sha256: sha256Text(text) };
}

/** Edits to one file, made against the content whose hash is `sha256`. */
export interface FileEdits {
  readonly file: string;
  readonly sha256: string;
  readonly edits: readonly YamlEdit[];
}

/** Someone else (the CLI, an editor) wrote the file after the form was rendered: 409, nothing written. */
export class StaleEditError extends HttpError {
  readonly file: string;
  constructor(file: string) {
    super(
      409,
      `${file} changed since this page was opened (the CLI or an editor wrote it); nothing was saved. Reload the page to see the file as it is now, then make the change again.`,
    );
    this.file = file;
  }
}

async function current(file: string, sha256: string): Promise<string> {
  const now = await readProfileText(file);
  if (now.sha256 !== sha256) throw new StaleEditError(file);
  return now.text;
}

/**
 * Applies edits to profile files of the config directory `dir`, all or none: every file is checked
 * against the hash it was edited from, the whole directory is validated by `loadConfig` as it
 * would read the edited files (a ConfigError carries its own messages), then each file is written
 * atomically, in the order given, so a watching server reloads whole files only. Returns the new texts.
 *
 * Two files change together only to move the default marker; the caller puts the file that gains
 * it first (see server/dashboard/guardrails/default-marker.ts for why).
 */
export async function saveProfileEdits(
  dir: string,
  registry: GuardrailRegistry,
  changes: readonly FileEdits[],
): Promise<ProfileText[]> {
  const next = new Map<string, string>();
  for (const change of changes) {
    const before = await current(change.file, change.sha256);
    next.set(change.file, editProfileText(change.file, before, change.edits));
  }
  await loadConfig(dir, registry, { overrides: next });
  const written: ProfileText[] = [];
  for (const change of changes) {
    const text = next.get(change.file) as string;
    // Checked again just before the write: the window in which another writer is missed is a few ms.
    await current(change.file, change.sha256);
    const mode = (await stat(change.file)).mode & 0o777;
    await writeFileAtomic(change.file, text, mode);
    written.push({ file: change.file, text, sha256: sha256Text(text) });
  }
  return written;
}
