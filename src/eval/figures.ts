/** Figures as the terminal summary and the HTML report both print them; `–` where undefined. */

export const pct = (v: number | null | undefined, digits = 1): string =>
  v == null ? "–" : `${(v * 100).toFixed(digits)}%`;

export const num = (v: number | null | undefined, digits = 3): string =>
  v == null ? "–" : v.toFixed(digits);
