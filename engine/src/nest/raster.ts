// A part outline as the nester sees it: a conservative raster of the outline grown by half the part
// spacing, as one list of occupied cell intervals per cell column. Two parts whose rasters share no
// cell are at least the spacing apart (docs/nesting.md "How parts are placed"). Holes stay empty, so
// other parts can be placed in them.

/** A point in mm. */
export type Point = readonly [number, number];

/** A flat's cut contours: the outer boundary and its holes, mm (any orientation; even-odd fill). */
export interface Outline { outer: readonly Point[]; holes: readonly (readonly Point[])[] }

/** Scanline offset either side of a vertex, mm: far below any manufacturing tolerance. */
const VERTEX_EPSILON_MM = 1e-7;
/** Cell rounding slack, mm: an edge this close to a grid line does not spill into the next cell. */
const GRID_TOLERANCE_MM = 1e-6;

/** Occupied cells of one column: sorted, disjoint, inclusive [from, to] pairs, flat. */
export type Intervals = number[];

export interface Raster {
  /** columns[i]: occupied cell intervals (along the width) of cell column i (along the length) */
  columns: Intervals[];
  /** cells across, along the width */
  height: number;
}

function loops(o: Outline): Point[][] {
  return [o.outer, ...o.holes].filter((l) => l.length >= 3).map((l) => [...l]);
}

/** x-intervals of the outline's cross-section at height y (even-odd), sorted. */
function scanline(ls: Point[][], y: number): number[] {
  const xs: number[] = [];
  for (const l of ls) {
    for (let i = 0, j = l.length - 1; i < l.length; j = i++) {
      const [x1, y1] = l[j], [x2, y2] = l[i];
      if ((y1 <= y) !== (y2 <= y)) xs.push(x1 + ((y - y1) / (y2 - y1)) * (x2 - x1));
    }
  }
  return xs.sort((a, b) => a - b);
}

/**
 * The exact projection onto x of the outline within the band lo <= y <= hi, as sorted disjoint
 * intervals [a, b, a, b, ...]. Between two neighbouring vertex heights the same edges cross every
 * scanline, so each interval moves linearly and its sweep is the hull of its two ends.
 */
function bandProjection(ls: Point[][], ys: number[], lo: number, hi: number): number[] {
  const samples = [lo + VERTEX_EPSILON_MM, hi - VERTEX_EPSILON_MM];
  for (const y of ys) {
    if (y < lo - VERTEX_EPSILON_MM || y > hi + VERTEX_EPSILON_MM) continue;
    samples.push(Math.max(lo, y - VERTEX_EPSILON_MM), Math.min(hi, y + VERTEX_EPSILON_MM));
  }
  samples.sort((a, b) => a - b);
  const spans: Array<[number, number]> = [];
  let prev: number[] | null = null;
  for (const y of samples) {
    const xs = scanline(ls, y);
    for (let k = 0; k + 1 < xs.length; k += 2) spans.push([xs[k], xs[k + 1]]);
    if (prev && prev.length === xs.length) for (let k = 0; k + 1 < xs.length; k += 2) spans.push([Math.min(xs[k], prev[k]), Math.max(xs[k + 1], prev[k + 1])]);
    prev = xs;
  }
  return mergeSpans(spans);
}

function mergeSpans(spans: Array<[number, number]>): number[] {
  spans.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [a, b] of spans) {
    if (out.length && a <= out[out.length - 1]) out[out.length - 1] = Math.max(out[out.length - 1], b);
    else out.push(a, b);
  }
  return out;
}

/** Adds [a, b] to sorted disjoint inclusive integer intervals, merging touching ones. */
export function addInterval(ivs: Intervals, a: number, b: number): void {
  let i = 0;
  while (i < ivs.length && ivs[i + 1] < a - 1) i += 2;
  let j = i;
  let lo = a, hi = b;
  while (j < ivs.length && ivs[j] <= b + 1) { lo = Math.min(lo, ivs[j]); hi = Math.max(hi, ivs[j + 1]); j += 2; }
  ivs.splice(i, j - i, lo, hi);
}

/**
 * Rasterises an outline already placed with its bounding box at (0, 0), grown by `grow` mm, on cells
 * of `cell` mm. Column i covers x in [i cell, (i + 1) cell] of the grown outline's frame, whose origin
 * is the outline's (0, 0) minus (grow, grow).
 */
export function rasterize(outline: Outline, lengthMm: number, widthMm: number, grow: number, cell: number): Raster {
  // columns are bands of x: swap so the band axis is the scanline's y
  const ls = loops(outline).map((l) => l.map(([x, y]) => [y + grow, x + grow] as Point));
  const ys = [...new Set(ls.flat().map((p) => p[1]))].sort((a, b) => a - b);
  const nCols = Math.max(1, Math.ceil((lengthMm + 2 * grow) / cell - GRID_TOLERANCE_MM / cell));
  const height = Math.max(1, Math.ceil((widthMm + 2 * grow) / cell - GRID_TOLERANCE_MM / cell));
  const bands = Array.from({ length: nCols }, (_, i) => bandProjection(ls, ys, i * cell, (i + 1) * cell));
  const reach = Math.floor(grow / cell) + 1;
  const columns: Intervals[] = [];
  for (let j = 0; j < nCols; j++) {
    const col: Intervals = [];
    for (let i = Math.max(0, j - reach); i <= Math.min(nCols - 1, j + reach); i++) {
      // the nearest the band of column i comes to column j
      const gap = Math.max(0, Math.abs(i - j) - 1) * cell;
      if (gap > grow) continue;
      const e = Math.sqrt(grow * grow - gap * gap);
      const b = bands[i];
      for (let k = 0; k < b.length; k += 2) {
        const from = Math.max(0, Math.floor((b[k] - e) / cell + GRID_TOLERANCE_MM / cell));
        const to = Math.min(height - 1, Math.ceil((b[k + 1] + e) / cell - GRID_TOLERANCE_MM / cell) - 1);
        if (to >= from) addInterval(col, from, to);
      }
    }
    columns.push(col);
  }
  return { columns, height };
}

/** Signed area of a loop, mm² (positive counter-clockwise). */
export function loopArea(l: readonly Point[]): number {
  let a = 0;
  for (let i = 0, j = l.length - 1; i < l.length; j = i++) a += l[j][0] * l[i][1] - l[i][0] * l[j][1];
  return a / 2;
}

/** Net area of an outline (outer minus holes), mm². */
export function outlineArea(o: Outline): number {
  return Math.abs(loopArea(o.outer)) - o.holes.reduce((s, h) => s + Math.abs(loopArea(h)), 0);
}

/** The outline turned by `degrees` about the origin. */
export function rotateOutline(o: Outline, degrees: number): Outline {
  const r = (degrees * Math.PI) / 180;
  // exact quarter turns keep axis-aligned edges exact
  const q = ((Math.round(degrees) % 360) + 360) % 360;
  const exact = Math.abs(degrees - Math.round(degrees)) < 1e-12 && q % 90 === 0;
  const c = exact ? [1, 0, -1, 0][q / 90] : Math.cos(r), s = exact ? [0, 1, 0, -1][q / 90] : Math.sin(r);
  const t = (l: readonly Point[]): Point[] => l.map(([x, y]) => [c * x - s * y, s * x + c * y] as Point);
  return { outer: t(o.outer), holes: o.holes.map(t) };
}

export function bounds(o: Outline): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of o.outer) { minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y); }
  return { minX, minY, maxX, maxY };
}

export function translateOutline(o: Outline, dx: number, dy: number): Outline {
  const t = (l: readonly Point[]): Point[] => l.map(([x, y]) => [x + dx, y + dy] as Point);
  return { outer: t(o.outer), holes: o.holes.map(t) };
}
