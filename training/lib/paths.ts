/** Where the training scripts find things by default: the repository, its models, the shared data sets. */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The public data sets (listed in their SOURCES.md), beside the repository and never copied into it. */
export const SHARED_DATASETS = resolve(REPO, "../shared/datasets");
/** The seed every shipped model was trained with. */
export const SEED = 20261122;

/** `models/<name>` of this repository. */
export const modelDir = (name: string): string => resolve(REPO, "models", name);
