import { type FSWatcher, watch } from "node:fs";
import { configPaths } from "../config/load.js";

/**
 * Calls `onChange` once a burst of changes in the config directory or its profiles/ has settled:
 * editors and atomic writes touch several files (and temporary ones) for one logical edit.
 * Returns a function that stops watching. A directory that cannot be watched is skipped; SIGHUP
 * still reloads.
 */
export function watchConfigDir(dir: string, onChange: () => void, debounceMs = 250): () => void {
  let timer: NodeJS.Timeout | undefined;
  const trigger = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
    timer.unref();
  };
  const watchers: FSWatcher[] = [];
  for (const target of [dir, configPaths(dir).profiles]) {
    try {
      watchers.push(watch(target, { persistent: false }, trigger).on("error", () => {}));
    } catch {
      // Not there or not watchable: reload by signal instead.
    }
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
