/**
 * `npm run build:models` (and the tail of `prepare`): converts USE-lite's TF.js graph to ONNX in
 * the cache folder when it is missing or stale. No network; about half a second. An entry point of
 * its own, beside the CLI's, because it runs during `npm install`.
 * Flags: --force rebuilds even when current; --cache-dir DIR writes elsewhere.
 */
import { relative } from "node:path";
import { ensureModel } from "../models/use-lite/model-cache.js";
import { PRECISIONS } from "../models/use-lite/precision.js";

async function main(argv: readonly string[]): Promise<number> {
  const force = argv.includes("--force");
  const at = argv.indexOf("--cache-dir");
  const cacheDir = at >= 0 ? argv[at + 1] : undefined;
  // Both encoders, fp32 first: the int8 one names it (GUARDRAIL_ENCODER_PRECISION picks one at run time).
  for (const precision of PRECISIONS) {
    const started = performance.now();
    const files = await ensureModel({ force, precision, ...(cacheDir ? { cacheDir } : {}) });
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const where = relative(process.cwd(), files.modelPath) || files.modelPath;
    const name = precision === "fp32" ? "use-lite" : `use-lite ${precision}`;
    console.log(
      `${name}: ${files.rebuilt ? "converted" : "up to date"} ${where} (${files.id}) in ${seconds} s`,
    );
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`use-lite: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
