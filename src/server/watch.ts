import { type FSWatcher, watch } from "node:fs";
import { configFingerprint } from "../config/fingerprint.js";
import { configPaths } from "../config/load.js";

export interface WatchOptions {
  /** Quiet time after the last event before `onChange` runs (default 250 ms). */
  readonly debounceMs?: number;
  /** How often the fallback compares the config's fingerprint (default 2 s). */
  readonly pollMs?: number;
  /** fs.watch, replaced in tests by one that never fires to prove the fallback alone suffices. */
  readonly watchPath?: (path: string, listener: () => void) => FSWatcher;
}

const nodeWatch = (path: string, listener: () => void) => watch(path, { persistent: false }, listener);

/**
 * Calls `onChange` once a burst of changes in the config directory or its profiles/ has settled:
 * editors and atomic writes touch several files (and temporary ones) for one logical edit.
 *
 * Two ways to notice, because neither alone is enough:
 * - fs.watch on the directory and on profiles/, re-armed after every change. profiles/ may be a
 *   symlink into a folder that is then deleted (a Kubernetes ConfigMap volume swaps `..data` to a
 *   new timestamped folder and removes the old one), which leaves a watcher on a dead inode.
 * - every `pollMs`, a fingerprint of the files (stat only). fs.watch misses events on network and
 *   some overlay file systems and on bind mounts from other hosts; this bounds the delay anyway.
 * Returns a function that stops both. SIGHUP still forces a reload.
 */
export function watchConfigDir(dir: string, onChange: () => void, options: WatchOptions = {}): () => void {
  const { debounceMs = 250, pollMs = 2000, watchPath = nodeWatch } = options;
  let timer: NodeJS.Timeout | undefined;
  let watchers: FSWatcher[] = [];
  let stopped = false;
  // What the files looked like when the config last loaded (or was about to): taken before
  // onChange reads them, so a change during that read shows up at the next poll.
  let seen: Promise<string> = configFingerprint(dir);

  const arm = () => {
    for (const watcher of watchers) watcher.close();
    watchers = [];
    for (const target of [dir, configPaths(dir).profiles]) {
      try {
        watchers.push(watchPath(target, trigger).on("error", trigger));
      } catch {
        // Not there (yet) or not watchable: the poll covers it.
      }
    }
  };
  const fire = async () => {
    if (stopped) return;
    arm();
    seen = configFingerprint(dir);
    await seen;
    if (!stopped) onChange();
  };
  const trigger = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void fire(), debounceMs);
    timer.unref();
  };
  const poll = setInterval(async () => {
    const before = await seen;
    if (!stopped && (await configFingerprint(dir)) !== before) trigger();
  }, pollMs);
  poll.unref();
  arm();

  return () => {
    stopped = true;
    clearTimeout(timer);
    clearInterval(poll);
    for (const watcher of watchers) watcher.close();
  };
}
