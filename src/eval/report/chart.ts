import { esc, px } from "./html.js";

/** A plot area in SVG user units with linear scales; y grows upwards like a chart's. */
export interface Frame {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly top: number;
  readonly plotWidth: number;
  readonly plotHeight: number;
  readonly yMax: number;
  readonly x: (v: number) => number;
  readonly y: (v: number) => number;
}

export function frame(yMax = 1, width = 320, height = 250): Frame {
  const left = 46;
  const top = 12;
  const plotWidth = width - left - 14;
  const plotHeight = height - top - 42;
  return {
    width,
    height,
    left,
    top,
    plotWidth,
    plotHeight,
    yMax,
    x: (v) => left + Math.min(1, Math.max(0, v)) * plotWidth,
    y: (v) => top + plotHeight - (Math.min(yMax, Math.max(0, v)) / (yMax || 1)) * plotHeight,
  };
}

/** Tick values for a count axis: about four steps of 1, 2 or 5 × 10^k. */
export function countTicks(max: number): number[] {
  if (max <= 0) return [0];
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  // Up to the first tick at or above the maximum, so the axis ends on a round number.
  for (let t = 0; t < max + step - 1e-9; t += step) ticks.push(Math.round(t * 1e6) / 1e6);
  return ticks;
}

const RATIO_TICKS = [0, 0.25, 0.5, 0.75, 1];

/** Grid, tick labels and axis titles; the x axis is always [0, 1]. */
export function axes(f: Frame, xLabel: string, yLabel: string, yTicks: number[] = RATIO_TICKS): string {
  const bottom = f.top + f.plotHeight;
  const parts: string[] = [];
  for (const t of RATIO_TICKS) {
    const x = px(f.x(t));
    parts.push(`<line class="grid" x1="${x}" y1="${f.top}" x2="${x}" y2="${bottom}"/>`);
    parts.push(`<text class="tick" x="${x}" y="${bottom + 14}" text-anchor="middle">${t}</text>`);
  }
  for (const t of yTicks) {
    const y = px(f.y(t));
    parts.push(`<line class="grid" x1="${f.left}" y1="${y}" x2="${f.left + f.plotWidth}" y2="${y}"/>`);
    parts.push(`<text class="tick" x="${f.left - 5}" y="${y}" dy="0.32em" text-anchor="end">${t}</text>`);
  }
  parts.push(
    `<rect class="plot" x="${f.left}" y="${f.top}" width="${f.plotWidth}" height="${f.plotHeight}"/>`,
  );
  parts.push(
    `<text class="axis" x="${px(f.left + f.plotWidth / 2)}" y="${f.height - 6}" text-anchor="middle">${esc(xLabel)}</text>`,
  );
  const cy = px(f.top + f.plotHeight / 2);
  parts.push(
    `<text class="axis" transform="translate(12 ${cy}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  return parts.join("");
}

export const polyline = (f: Frame, points: readonly (readonly [number, number])[], cls: string): string =>
  `<polyline class="${cls}" points="${points.map(([x, y]) => `${px(f.x(x))},${px(f.y(y))}`).join(" ")}"/>`;

export interface Marker {
  readonly x: number;
  readonly y: number;
  readonly label: string;
  readonly cls: string;
}

/**
 * Labelled dots. Labels try above, below, then further out, keeping inside the plot and clear of
 * the labels already placed: the profile's and the recommended thresholds often sit close together.
 */
export function markers(f: Frame, list: readonly Marker[]): string {
  const placed: { x0: number; x1: number; y: number }[] = [];
  const dots: string[] = [];
  const labels: string[] = [];
  for (const m of list) {
    const cx = f.x(m.x);
    const cy = f.y(m.y);
    const right = cx > f.left + f.plotWidth * 0.55;
    const width = m.label.length * 6.2;
    const x0 = right ? cx - 8 - width : cx + 8;
    const inside = (y: number) => y > f.top + 10 && y < f.top + f.plotHeight - 2;
    const clear = (y: number) =>
      placed.every((p) => Math.abs(p.y - y) >= 13 || p.x1 < x0 || p.x0 > x0 + width);
    const y =
      [cy - 7, cy + 15, cy - 20, cy + 28, cy - 33, cy + 41].find((c) => inside(c) && clear(c)) ?? cy - 7;
    placed.push({ x0, x1: x0 + width, y });
    dots.push(`<circle class="${m.cls}" cx="${px(cx)}" cy="${px(cy)}" r="4.5"/>`);
    labels.push(
      `<text class="mark ${m.cls}" x="${px(right ? cx - 8 : cx + 8)}" y="${px(y)}" text-anchor="${right ? "end" : "start"}">${esc(m.label)}</text>`,
    );
  }
  return dots.join("") + labels.join("");
}

/** Short text in the plot's bottom-right or top-right corner (AUC figures, legends). */
export function note(f: Frame, lines: readonly { text: string; cls?: string }[], corner: "top" | "bottom") {
  const x = px(f.left + f.plotWidth - 6);
  const y0 = corner === "top" ? f.top + 14 : f.top + f.plotHeight - 8 - (lines.length - 1) * 14;
  return lines
    .map(
      (l, i) =>
        `<text class="note ${l.cls ?? ""}" x="${x}" y="${px(y0 + i * 14)}" text-anchor="end">${esc(l.text)}</text>`,
    )
    .join("");
}

export function svg(f: Frame, title: string, body: string): string {
  return `<svg class="chart" viewBox="0 0 ${f.width} ${f.height}" width="${f.width}" height="${f.height}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>${body}</svg>`;
}
