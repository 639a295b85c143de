import { chmod, readFile, stat } from "node:fs/promises";
import { type Document, isMap, isSeq, parseDocument, type YAMLSeq } from "yaml";
import { ConfigError, UsageError } from "../errors.js";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import { type AppRecord, appsFileSchema, generateAppId } from "./apps.js";
import { writeFileAtomic } from "./files.js";
import { formatIssues } from "./issues.js";
import { generateKey, type KeyRecord, keysFileSchema } from "./keys.js";
import { type Config, configPaths, loadConfig } from "./load.js";

export interface StoreOptions {
  readonly registry: GuardrailRegistry;
  readonly now?: () => Date;
}

type ListFile = "apps" | "keys";

/** Key hashes are not secrets in the way keys are, but nobody else has a reason to read them. */
export const KEY_FILE_MODE = 0o600;

async function readDocument(file: string, list: ListFile): Promise<Document> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  let doc = parseDocument(text);
  // Empty, or comments only (loadConfig has already refused anything else that is not a map).
  if (!isMap(doc.contents)) doc = parseDocument(`${text.trim() ? `${text.trimEnd()}\n` : ""}${list}: []\n`);
  if (!isSeq(doc.get(list))) doc.set(list, doc.createNode([]));
  return doc;
}

/** The same checks `loadConfig` makes on this file, run on the edited document before writing it. */
function validate(list: ListFile, doc: Document, file: string, config: Config): string[] {
  const schema = list === "apps" ? appsFileSchema : keysFileSchema;
  const parsed = schema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) return formatIssues(file, parsed.error.issues);
  const problems: string[] = [];
  const seen = new Set<string>();
  const records: readonly { id: string; profile?: string }[] =
    "apps" in parsed.data ? parsed.data.apps : parsed.data.keys;
  records.forEach((record, i) => {
    if (seen.has(record.id)) problems.push(`${file}: ${list}[${i}].id: duplicate id "${record.id}"`);
    seen.add(record.id);
    if (record.profile !== undefined && !config.profiles.has(record.profile))
      problems.push(`${file}: ${list}[${i}].profile: unknown profile "${record.profile}"`);
  });
  return problems;
}

/**
 * Every mutation goes through here: the whole config must load first (a broken config is never
 * edited further), the change edits the YAML document in place so hand-written comments survive,
 * and the result is re-validated before one atomic write. An edit that changes nothing writes nothing.
 */
async function mutate<T>(
  dir: string,
  list: ListFile,
  options: StoreOptions,
  change: (seq: YAMLSeq, config: Config, doc: Document) => T,
): Promise<T> {
  const config = await loadConfig(dir, options.registry);
  const file = configPaths(dir)[list];
  const doc = await readDocument(file, list);
  const before = doc.toString();
  const seq = doc.get(list) as YAMLSeq;
  const result = change(seq, config, doc);
  seq.flow = seq.items.length === 0;
  const problems = validate(list, doc, file, config);
  if (problems.length > 0)
    throw new ConfigError([`refusing to write ${file}: the change would not load`, ...problems]);
  const after = doc.toString();
  if (after !== before) await writeFileAtomic(file, after, list === "keys" ? KEY_FILE_MODE : 0o644);
  return result;
}

const timestamp = (options: StoreOptions) => (options.now?.() ?? new Date()).toISOString();

function findKey(config: Config, id: string): { index: number; record: KeyRecord } {
  const index = config.keys.findIndex((k) => k.id === id);
  const record = config.keys[index];
  if (!record) {
    const known = config.keys.map((k) => k.id).join(", ") || "none";
    throw new UsageError(`unknown key id "${id}" (known: ${known}); see \`guardrail keys list\``);
  }
  return { index, record };
}

export interface CreatedKey {
  /** The plain key: returned once, never stored. */
  readonly key: string;
  readonly record: KeyRecord;
  /** The key `replace` revoked in the same write. */
  readonly replaced?: KeyRecord;
}

/**
 * Adds a key. Other keys stay active (the spec's rotation, docs/service-spec.md "Organization API key": old and new overlap until traffic
 * moves), unless `replace` names one: then it is revoked in the same write (the lost-key case).
 */
export function createKey(
  dir: string,
  input: { label?: string; replace?: string },
  options: StoreOptions,
): Promise<CreatedKey> {
  return mutate(dir, "keys", options, (seq, config, doc) => {
    const created = timestamp(options);
    let replaced: KeyRecord | undefined;
    if (input.replace !== undefined) {
      const { index, record } = findKey(config, input.replace);
      if (record.revoked) throw new UsageError(`key ${record.id} is already revoked (${record.revoked})`);
      doc.setIn(["keys", index, "revoked"], created);
      replaced = { ...record, revoked: created };
    }
    const { key, record: generated } = generateKey();
    const record: KeyRecord = {
      id: generated.id,
      label: input.label ?? "",
      sha256: generated.sha256,
      created,
    };
    seq.add(doc.createNode(record));
    return { key, record, ...(replaced ? { replaced } : {}) };
  });
}

/** Marks a key revoked. Revoking a revoked key changes nothing and says when it happened. */
export function revokeKey(dir: string, id: string, options: StoreOptions) {
  return mutate(dir, "keys", options, (_seq, config, doc) => {
    const { index, record } = findKey(config, id);
    if (record.revoked) return { record, alreadyRevoked: true, activeLeft: countActive(config.keys) };
    const revoked = timestamp(options);
    doc.setIn(["keys", index, "revoked"], revoked);
    const activeLeft = countActive(config.keys) - 1;
    return { record: { ...record, revoked }, alreadyRevoked: false, activeLeft };
  });
}

const countActive = (keys: readonly KeyRecord[]) => keys.filter((k) => !k.revoked).length;

/** Tightens a keys.yaml left readable by group or others (copied, restored from a backup). */
export async function secureKeyFile(dir: string): Promise<boolean> {
  const file = configPaths(dir).keys;
  const info = await stat(file).catch(() => undefined);
  if (!info || (info.mode & 0o077) === 0) return false;
  await chmod(file, KEY_FILE_MODE);
  return true;
}

function requireProfile(config: Config, name: string): void {
  if (config.profiles.has(name)) return;
  const known = [...config.profiles.keys()].join(", ") || "none";
  throw new UsageError(`unknown profile "${name}" (known: ${known})`);
}

function findApp(config: Config, id: string): { index: number; app: AppRecord } {
  const index = [...config.apps.keys()].indexOf(id);
  const app = config.apps.get(id);
  if (!app) throw new UsageError(`unknown App ID "${id}"; see \`guardrail apps list --reveal\``);
  return { index, app };
}

export function createApp(dir: string, input: { name: string; profile: string }, options: StoreOptions) {
  return mutate(dir, "apps", options, (seq, config, doc): AppRecord => {
    requireProfile(config, input.profile);
    // Names are only labels, but two apps with one name is almost always a command run twice.
    if ([...config.apps.values()].some((a) => a.name === input.name))
      throw new UsageError(`an app named "${input.name}" already exists; see \`guardrail apps list\``);
    let id = generateAppId();
    while (config.apps.has(id)) id = generateAppId();
    const app = { name: input.name, id, profile: input.profile, created: timestamp(options) };
    seq.add(doc.createNode(app));
    return app;
  });
}

export function bindApp(dir: string, id: string, profile: string, options: StoreOptions) {
  return mutate(dir, "apps", options, (_seq, config, doc) => {
    const { index, app } = findApp(config, id);
    requireProfile(config, profile);
    doc.setIn(["apps", index, "profile"], profile);
    return { app: { ...app, profile }, previous: app.profile };
  });
}

export function deleteApp(dir: string, id: string, options: StoreOptions): Promise<AppRecord> {
  return mutate(dir, "apps", options, (seq, config) => {
    const { index, app } = findApp(config, id);
    seq.delete(index);
    return app;
  });
}
