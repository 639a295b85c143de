import { mkdir, readdir, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Relative path in the volume (`keys.yaml`, `profiles/strict.yaml`) → content. */
export type VolumeFiles = Readonly<Record<string, string>>;

let serial = 0;

/** `..2026_11_27_17_00_00.123456789`: the kubelet's name for each version of the volume. */
function versionName(): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:T]/g, "_").replace(/\..*$/, "");
  return `..${stamp}.${String(process.hrtime.bigint() % 1_000_000_000n).padStart(9, "0")}${serial++}`;
}

/**
 * Writes `files` into `dir` the way the kubelet's AtomicWriter updates a ConfigMap, Secret or
 * projected volume (kubernetes pkg/volume/util/atomic_writer.go): a new timestamped folder, a
 * `..data_tmp` symlink to it renamed over `..data`, one top-level symlink per visible name
 * (`keys.yaml -> ..data/keys.yaml`, `profiles -> ..data/profiles`), names no longer present
 * removed, and the previous folder deleted.
 */
export async function writeKubeVolume(dir: string, files: VolumeFiles): Promise<void> {
  await mkdir(dir, { recursive: true });
  const previous = await readlink(join(dir, "..data")).catch(() => undefined);
  const version = versionName();
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, version, path)), { recursive: true });
    await writeFile(join(dir, version, path), content);
  }
  await symlink(version, join(dir, "..data_tmp"));
  await rename(join(dir, "..data_tmp"), join(dir, "..data"));
  const visible = new Set(Object.keys(files).map((path) => path.split("/")[0] ?? path));
  for (const name of visible) {
    await symlink(join("..data", name), join(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
  for (const name of await readdir(dir)) {
    if (!name.startsWith("..") && !visible.has(name)) await rm(join(dir, name));
  }
  if (previous) await rm(join(dir, previous), { recursive: true, force: true });
}
