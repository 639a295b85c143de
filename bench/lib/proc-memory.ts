import { readFile } from "node:fs/promises";

/** Where a process's resident memory is, from /proc/<pid>/smaps (Linux only), in bytes. */
export interface MemoryMap {
  readonly rss: number;
  /** Mapped files: the node binary, onnxruntime's shared library, the model file if mapped. */
  readonly files: number;
  /** glibc's main malloc arena (the `[heap]` segment grown with brk). */
  readonly brk: number;
  /** glibc's per-thread malloc arenas: 64 MiB-aligned reservations of 64 MiB each. */
  readonly arenas: number;
  readonly arenaCount: number;
  /** Every other anonymous mapping: V8 heaps of every thread, large mallocs (≥ 128 KiB by
   *  default: mmap'd one by one), thread stacks. */
  readonly otherAnon: number;
}

const HEAP_MAX = 64 * 2 ** 20; // glibc HEAP_MAX_SIZE on 64-bit (arena.c)

interface Region {
  start: number;
  end: number;
  perms: string;
  path: string;
  rss: number;
}

export async function memoryMap(pid: number): Promise<MemoryMap | undefined> {
  const text = await readFile(`/proc/${pid}/smaps`, "utf8").catch(() => "");
  if (!text) return undefined;
  const regions: Region[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [, start, end, perms, path] = head as unknown as [string, string, string, string, string];
      regions.push({ start: Number.parseInt(start, 16), end: Number.parseInt(end, 16), perms, path, rss: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    const last = regions.at(-1);
    if (rss && last) last.rss = Number(rss[1]) * 1024;
  }
  const map = { rss: 0, files: 0, brk: 0, arenas: 0, arenaCount: 0, otherAnon: 0 };
  for (let i = 0; i < regions.length; i++) {
    const region = regions[i] as Region;
    map.rss += region.rss;
    if (region.path === "[heap]") map.brk += region.rss;
    else if (region.path.startsWith("/")) map.files += region.rss;
    else if (isArena(region, regions[i + 1])) {
      map.arenas += region.rss;
      map.arenaCount++;
    } else map.otherAnon += region.rss;
  }
  return map;
}

/** A thread arena's heap: read-write from a 64 MiB boundary, the rest of the 64 MiB reserved. */
function isArena(region: Region, next: Region | undefined): boolean {
  if (region.path !== "" || !region.perms.startsWith("rw") || region.start % HEAP_MAX !== 0) return false;
  const size = region.end - region.start;
  if (size === HEAP_MAX) return true;
  return (
    next !== undefined &&
    next.start === region.end &&
    next.perms.startsWith("---") &&
    next.end - region.start === HEAP_MAX
  );
}
