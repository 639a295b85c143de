import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { root } from "./built.js";

export const MANIFEST_DIR = join(root, "deploy", "kubernetes");

/** A Kubernetes object, typed only as far as the tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field in the tests
export type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [field: string]: any };

/** Every document of every .yaml file under deploy/kubernetes/, by file; YAML errors throw. */
export function readManifests(): { file: string; doc: Manifest }[] {
  return readdirSync(MANIFEST_DIR)
    .filter((name) => name.endsWith(".yaml"))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(MANIFEST_DIR, file), "utf8")).map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
        return { file, doc: doc.toJS() as Manifest };
      }),
    );
}

/** The one manifest of `kind`. */
export function only(manifests: readonly { doc: Manifest }[], kind: string): Manifest {
  const found = manifests.filter((m) => m.doc.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return (found[0] as { doc: Manifest }).doc;
}
