/** Short human figures for the live view. */

export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "–";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/** Seconds left at the average rate so far; null until there is a rate and a total. */
export function eta(rows: number, total: number | null, rowsPerSecond: number): number | null {
  if (total === null || rowsPerSecond <= 0) return null;
  return Math.max(0, total - rows) / rowsPerSecond;
}

export function rate(rowsPerSecond: number): string {
  return rowsPerSecond >= 100 ? String(Math.round(rowsPerSecond)) : rowsPerSecond.toFixed(1);
}

/** `width` cells of a bar, filled in eighths so slow runs still move. */
export function bar(fraction: number, width: number): string {
  const f = Math.min(1, Math.max(0, fraction));
  const eighths = Math.round(f * width * 8);
  const full = Math.floor(eighths / 8);
  const part = eighths % 8;
  const partial = part === 0 ? "" : (" ▏▎▍▌▋▊▉"[part] ?? "");
  return `${"█".repeat(full)}${partial}${" ".repeat(Math.max(0, width - full - (partial ? 1 : 0)))}`;
}
