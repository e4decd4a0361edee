// True-shape nesting of flats onto stock sheets (docs/nesting.md): every piece is placed at the
// lowest position along the sheet's length (then across its width) where its raster (raster.ts)
// meets no other piece's, in the allowed rotations, on the first sheet that takes it; pieces are
// tried in an order, and a seeded search over orders keeps the nest that charges least material.
// Pure and deterministic: the same request gives the same nest (the optional time budget only cuts
// the search short, with the best nest found so far).
import { bounds, outlineArea, rasterize, rotateOutline, translateOutline, addInterval, type Intervals, type Outline, type Raster } from './raster.ts';

export interface NestItem {
  /** the part's id: placements and findings name it */
  id: string;
  outline: Outline;
  /** pieces to place */
  count: number;
  /** rotations allowed for this part, degrees (default: the request's) */
  rotations?: readonly number[];
}

export interface NestRequest {
  items: readonly NestItem[];
  /** the stock sheet, mm: length is the long side, along x */
  sheet: { length_mm: number; width_mm: number };
  /** least gap between two parts' cut contours, mm */
  spacing_mm: number;
  /** least gap between a part and the sheet's edge, mm */
  margin_mm: number;
  /** rotations allowed, degrees (default [0, 90, 180, 270]; grain direction: [0, 180]) */
  rotations?: readonly number[];
  /** raster cell, mm (default NEST_CELL_MM) */
  cell_mm?: number;
  /** whole nests the order search may build (default NEST_DEFAULT_EVALUATIONS); deterministic */
  max_evaluations?: number;
  /** a wall-clock cap on the search, ms: it stops with the best nest so far */
  time_budget_ms?: number;
  /** the order search's seed */
  seed?: number;
}

/** A piece on a sheet: outline point p goes to rotate(p, rotation_deg) + (x_mm, y_mm). */
export interface Placement { id: string; rotation_deg: number; x_mm: number; y_mm: number }

export interface NestSheet {
  placements: Placement[];
  /** the rectangle from the sheet's corner that holds every piece with half the spacing around it, mm */
  used_length_mm: number;
  used_width_mm: number;
  /** net area of the pieces on it, mm² */
  parts_area_mm2: number;
}

export interface NestFinding { code: 'part_larger_than_sheet'; part_id: string; message: string }

export interface NestResult {
  sheet: { length_mm: number; width_mm: number };
  sheets: NestSheet[];
  /** pieces that could not be placed, with why */
  findings: NestFinding[];
  parts_area_mm2: number;
  /** whole nests built by the search */
  evaluations: number;
  /** why the search stopped: it tried every order it was allowed, or ran out of time */
  stopped_by: 'evaluations' | 'time';
}

/** Raster cell, mm: placements are on this grid and each part's outline may grow by up to one cell. */
export const NEST_CELL_MM = 1;
/** Whole nests the order search builds by default: the greedy orders and a few shuffles of the best. */
export const NEST_DEFAULT_EVALUATIONS = 8;
/** Strip widths the last sheet is nested again in, as multiples of the side of a square of its pieces' area. */
const STRIP_FACTORS = [0.8, 1, 1.2, 1.5, 2, 3];
export const NEST_DEFAULT_ROTATIONS: readonly number[] = [0, 90, 180, 270];

/** One piece of a shape: its rotation, its cell offset in the shape, its outline's offset in mm. */
interface Member { rotation: number; du: number; dv: number; dx: number; dy: number }

/** What is placed at once: one piece, or a pair of pieces that interlock (`pairUp`). */
interface Shape {
  itemIndex: number;
  members: Member[];
  /** occupied cells per cell column (along the length), as runs across the width */
  cols: Intervals[];
  /** the same cells per cell row (across the width), as runs along the length */
  rows: Intervals[];
  key: string;
  /** cursor keys of the two scan directions */
  keyU?: string;
  keyV?: string;
}

/** One thing to place: a piece (or a pair of pieces) in the shapes its rotations give. */
interface Piece { itemIndex: number; shapes: Shape[]; area: number; boxLength: number; boxArea: number }

interface SheetState {
  cols: Intervals[];
  rows: Intervals[];
  /** the longest free run of each column and row, cells */
  colGaps: Int32Array;
  rowGaps: Int32Array;
  placements: Placement[];
  pieces: Piece[];
  /** per shape and scan direction: positions before it no longer fit (a sheet only fills up) */
  cursors: Map<string, [number, number]>;
  usedU: number;
  usedV: number;
  area: number;
}

/** The shape line that collided last: checked first next time (neighbouring positions collide alike). */
let lastHit = 0;

/** Next position worth trying across the lines when the shape collides at (a, b); -1 when it fits. */
function collision(lines: Intervals[], shape: Intervals[], a: number, b: number): number {
  const n = shape.length;
  const first = lastHit < n ? lastHit : 0;
  for (let i = 0; i < n; i++) {
    const d = i === 0 ? first : (i <= first ? i - 1 : i);
    const runs = lines[a + d];
    if (runs.length === 0) continue;
    const ivs = shape[d];
    for (let k = 0; k < ivs.length; k += 2) {
      const lo = b + ivs[k], hi = b + ivs[k + 1];
      // first run ending at or after lo
      let x = 0, y = runs.length / 2;
      while (x < y) { const m = (x + y) >> 1; if (runs[2 * m + 1] < lo) x = m + 1; else y = m; }
      if (x < runs.length / 2 && runs[2 * x] <= hi) { lastHit = d; return runs[2 * x + 1] - ivs[k] + 1; }
    }
  }
  return -1;
}

/**
 * Lowest position (along the lines first, then across) where the shape fits, from its cursor on, or
 * null. `span` is the shape's extent across the lines.
 */
function lowestFit(lines: Intervals[], shape: Intervals[], span: number, across: number, cursors: Map<string, [number, number]>, key: string, gaps?: Int32Array): [number, number] | null {
  const start = cursors.get(key) ?? [0, 0];
  const aMax = lines.length - shape.length, bMax = across - span;
  // a line whose widest free gap is narrower than the shape's widest run there cannot take it
  const [wd, wl] = widest(shape);
  for (let a = start[0]; a <= aMax; a++) {
    if (gaps && gaps[a + wd] < wl) continue;
    let b = a === start[0] ? start[1] : 0;
    while (b <= bMax) {
      const next = collision(lines, shape, a, b);
      if (next < 0) { cursors.set(key, [a, b]); return [a, b]; }
      b = next;
    }
  }
  cursors.set(key, [aMax + 1, 0]);
  return null;
}

const widestOf = new WeakMap<Intervals[], [number, number]>();
/** The shape's line with the longest run, and that run's length. */
function widest(shape: Intervals[]): [number, number] {
  let w = widestOf.get(shape);
  if (!w) {
    w = [0, 0];
    shape.forEach((ivs, d) => { for (let k = 0; k < ivs.length; k += 2) if (ivs[k + 1] - ivs[k] + 1 > w![1]) w = [d, ivs[k + 1] - ivs[k] + 1]; });
    widestOf.set(shape, w);
  }
  return w;
}

/** The longest free run of a line `across` cells long. */
function freeGap(runs: Intervals, across: number): number {
  let g = 0, at = 0;
  for (let k = 0; k < runs.length; k += 2) { g = Math.max(g, runs[k] - at); at = runs[k + 1] + 1; }
  return Math.max(g, across - at);
}

/**
 * The lowest fit across the lines at each of the `window` lines after `from` (the lowest fit along
 * them): where a piece interlocks with its neighbours (an L in another L's notch) it sits a little
 * past the lowest fit, not at it.
 */
function fitsAfter(lines: Intervals[], shape: Intervals[], span: number, across: number, from: number, window: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const aMax = Math.min(lines.length - shape.length, from + window), bMax = across - span;
  for (let a = from + 1; a <= aMax; a++) {
    let b = 0;
    while (b <= bMax) {
      const next = collision(lines, shape, a, b);
      if (next < 0) { out.push([a, b]); break; }
      b = next;
    }
  }
  return out;
}

function place(sheet: SheetState, s: Shape, u: number, v: number, id: string, area: number, cell: number): void {
  for (const m of s.members) sheet.placements.push({ id, rotation_deg: m.rotation, x_mm: round6((u + m.du) * cell + m.dx), y_mm: round6((v + m.dv) * cell + m.dy) });
  for (let du = 0; du < s.cols.length; du++) {
    for (let k = 0; k < s.cols[du].length; k += 2) addInterval(sheet.cols[u + du], v + s.cols[du][k], v + s.cols[du][k + 1]);
    sheet.colGaps[u + du] = freeGap(sheet.cols[u + du], sheet.rows.length);
  }
  for (let dv = 0; dv < s.rows.length; dv++) {
    for (let k = 0; k < s.rows[dv].length; k += 2) addInterval(sheet.rows[v + dv], u + s.rows[dv][k], u + s.rows[dv][k + 1]);
    sheet.rowGaps[v + dv] = freeGap(sheet.rows[v + dv], sheet.cols.length);
  }
  sheet.usedU = Math.max(sheet.usedU, u + s.cols.length);
  sheet.usedV = Math.max(sheet.usedV, v + s.rows.length);
  sheet.area += area;
}

const emptySheet = (length: number, width: number): SheetState => ({
  cols: Array.from({ length }, () => []), rows: Array.from({ length: width }, () => []), colGaps: new Int32Array(length).fill(width), rowGaps: new Int32Array(width).fill(length),
  placements: [], pieces: [], cursors: new Map(), usedU: 0, usedV: 0, area: 0,
});

/** Pairs of pieces are placed as one shape when their rectangle is this much smaller than two boxes. */
const PAIR_GAIN = 0.9;

/**
 * The tightest pair of two pieces of one part (the second in any rotation, at the fits that keep
 * their rectangle smallest), one pair shape per rotation of the first, or none when pairing gains
 * nothing (rectangles): L-shapes interlock this way however the greedy placement would meet them.
 */
function pairUp(shapes: Shape[], lengthCells: number, widthCells: number): Shape[] {
  const single = Math.min(...shapes.map((s) => s.cols.length * s.rows.length));
  const out: Shape[] = [];
  for (const a of shapes) {
    const maxLen = Math.max(...shapes.map((s) => s.cols.length)), maxHei = Math.max(...shapes.map((s) => s.rows.length));
    const lc = Math.min(lengthCells, a.cols.length + maxLen), wc = Math.min(widthCells, a.rows.length + maxHei);
    let best: { b: Shape; u: number; v: number; area: number; len: number; hei: number } | null = null;
    for (const b of shapes) {
      const sheet = emptySheet(lc, wc);
      place(sheet, a, 0, 0, '', 0, 1);
      const ats: Array<[number, number]> = [];
      const f = lowestFit(sheet.cols, b.cols, b.rows.length, wc, sheet.cursors, 'u');
      if (f) ats.push(f, ...fitsAfter(sheet.cols, b.cols, b.rows.length, wc, f[0], lc));
      const g = lowestFit(sheet.rows, b.rows, b.cols.length, lc, sheet.cursors, 'v');
      if (g) ats.push([g[1], g[0]], ...fitsAfter(sheet.rows, b.rows, b.cols.length, lc, g[0], wc).map(([v, u]) => [u, v] as [number, number]));
      for (const [u, v] of ats) {
        const len = Math.max(a.cols.length, u + b.cols.length), hei = Math.max(a.rows.length, v + b.rows.length);
        if (!best || len * hei < best.area) best = { b, u, v, area: len * hei, len, hei };
      }
    }
    if (!best || best.area > PAIR_GAIN * 2 * single) continue;
    const cols: Intervals[] = Array.from({ length: best.len }, () => []);
    for (const [sh, u0, v0] of [[a, 0, 0], [best.b, best.u, best.v]] as Array<[Shape, number, number]>) {
      sh.cols.forEach((c, du) => { for (let k = 0; k < c.length; k += 2) addInterval(cols[u0 + du], v0 + c[k], v0 + c[k + 1]); });
    }
    const at = (m: Member, u0: number, v0: number): Member => ({ ...m, du: m.du + u0, dv: m.dv + v0 });
    out.push({
      itemIndex: a.itemIndex, members: [...a.members.map((m) => at(m, 0, 0)), ...best.b.members.map((m) => at(m, best!.u, best!.v))],
      cols, rows: transpose({ columns: cols, height: best.hei }), key: `pair:${a.key}:${best.b.key}`,
    });
  }
  return out;
}

/** The cells of a raster by row: runs along the length. */
function transpose(r: Raster): Intervals[] {
  const rows: number[][] = Array.from({ length: r.height }, () => []);
  r.columns.forEach((c, du) => { for (let k = 0; k < c.length; k += 2) for (let v = c[k]; v <= c[k + 1]; v++) rows[v].push(du); });
  return rows.map((cells) => {
    const runs: Intervals = [];
    for (const du of cells) { if (runs.length && runs[runs.length - 1] === du - 1) runs[runs.length - 1] = du; else runs.push(du, du); }
    return runs;
  });
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** Seeded 32-bit generator (mulberry32): the search is the same every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Built { sheets: SheetState[]; cost: number }

/**
 * How a piece's position is chosen among its rotations' fits: `envelope` keeps the rectangle the
 * sheet uses smallest (ties: the piece's far end nearest the sheet's start), `envelope_across` too
 * (ties: nearest the sheet's long edge: turns pieces to lie along the sheet), `far` keeps the
 * piece's far end nearest the sheet's start.
 */
type ScoreMode = 'envelope' | 'envelope_across' | 'envelope_sum' | 'far';

const less = (a: number[], b: number[]): boolean => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
};

/**
 * Nests the request's pieces. A piece no empty sheet takes in any allowed rotation is left out with
 * a `part_larger_than_sheet` finding; everything else is placed.
 */
export function nest(req: NestRequest): NestResult {
  // the budget counts from the call: rasterising the outlines is part of the time a caller waits
  const started = performance.now();
  const cell = req.cell_mm ?? NEST_CELL_MM;
  const L = Math.max(req.sheet.length_mm, req.sheet.width_mm), W = Math.min(req.sheet.length_mm, req.sheet.width_mm);
  if (!(cell > 0) || !(L > 0) || !(W > 0) || !(req.spacing_mm >= 0) || !(req.margin_mm >= 0)) throw new RangeError('nest: sheet, cell, spacing and margin must be positive numbers');
  const grow = req.spacing_mm / 2;
  // the grown outlines may reach half the spacing into the edge margin
  const origin = req.margin_mm - grow;
  const lengthCells = Math.floor((L - 2 * origin) / cell + 1e-9), widthCells = Math.floor((W - 2 * origin) / cell + 1e-9);
  const findings: NestFinding[] = [];
  const pieces: Piece[] = [];
  /** the same pieces with pairs of a part placed as one where that gains (pairUp) */
  const paired: Piece[] = [];
  let anyPairs = false;
  let partsArea = 0;
  req.items.forEach((it, itemIndex) => {
    if (!Number.isInteger(it.count) || it.count < 0) throw new RangeError(`nest: ${it.id}: count must be a whole number`);
    if (it.count === 0) return;
    const area = outlineArea(it.outline);
    const rotations = [...new Set(it.rotations ?? req.rotations ?? NEST_DEFAULT_ROTATIONS)];
    const shapes: Shape[] = [];
    const seen = new Set<string>();
    for (const rotation of rotations) {
      const turned = rotateOutline(it.outline, rotation);
      const b = bounds(turned);
      const len = b.maxX - b.minX, wid = b.maxY - b.minY;
      const raster = rasterize(translateOutline(turned, -b.minX, -b.minY), len, wid, grow, cell);
      if (raster.columns.length > lengthCells || raster.height > widthCells) continue;
      // two rotations with one raster (a symmetric part) are one shape
      const cells = JSON.stringify(raster.columns);
      if (seen.has(cells)) continue;
      seen.add(cells);
      // a short key: cursors are looked up on every try
      shapes.push({ itemIndex, members: [{ rotation, du: 0, dv: 0, dx: origin + grow - b.minX, dy: origin + grow - b.minY }], cols: raster.columns, rows: transpose(raster), key: `${itemIndex}:${rotation}` });
    }
    if (!shapes.length) {
      const b = bounds(it.outline);
      findings.push({ code: 'part_larger_than_sheet', part_id: it.id, message: `part ${it.id} (${round1(b.maxX - b.minX)} x ${round1(b.maxY - b.minY)} mm flat) does not fit the ${round1(L)} x ${round1(W)} mm stock sheet with ${req.margin_mm} mm edge margin in any allowed rotation` });
      return;
    }
    const box = bounds(it.outline);
    const one: Piece = { itemIndex, shapes, area, boxLength: Math.max(box.maxX - box.minX, box.maxY - box.minY), boxArea: (box.maxX - box.minX) * (box.maxY - box.minY) };
    for (let n = 0; n < it.count; n++) pieces.push(one);
    partsArea += area * it.count;
    const pairs = it.count >= 2 ? pairUp(shapes, lengthCells, widthCells) : [];
    const two: Piece = { ...one, shapes: pairs, area: 2 * area, boxArea: 2 * one.boxArea };
    if (pairs.length) {
      anyPairs = true;
      for (let n = 0; n + 1 < it.count; n += 2) paired.push(two);
      if (it.count % 2) paired.push(one);
    } else for (let n = 0; n < it.count; n++) paired.push(one);
  });

  const sheetArea = L * W;
  const build = (order: Piece[], mode: ScoreMode, width = widthCells): Built => {
    const sheets: SheetState[] = [];
    const open = (): SheetState => {
      const s = emptySheet(lengthCells, width);
      sheets.push(s);
      return s;
    };
    for (const p of order) {
      let placed = false;
      for (let si = 0; si <= sheets.length && !placed; si++) {
        const sheet = si < sheets.length ? sheets[si] : open();
        let best: { s: Shape; u: number; v: number; score: number[] } | null = null;
        for (const s of p.shapes) {
          // the lowest fit along the length and the lowest across it
          const a = lowestFit(sheet.cols, s.cols, s.rows.length, width, sheet.cursors, (s.keyU ??= `u${s.key}`), sheet.colGaps);
          const bv = lowestFit(sheet.rows, s.rows, s.cols.length, lengthCells, sheet.cursors, (s.keyV ??= `v${s.key}`), sheet.rowGaps);
          const ats: Array<[number, number]> = [];
          if (a) ats.push(a);
          if (bv) ats.push([bv[1], bv[0]]);
          for (const at of ats) {
            const [u, v] = at;
            const far = u + s.cols.length;
            const envelope = Math.max(sheet.usedU, far) * Math.max(sheet.usedV, v + s.rows.length);
            const score = mode === 'envelope' ? [envelope, far, v] : mode === 'envelope_across' ? [envelope, v + s.rows.length, far] : mode === 'envelope_sum' ? [envelope, far + v + s.rows.length] : [far, v];
            if (!best || less(score, best.score)) best = { s, u, v, score };
          }
        }
        if (best) { place(sheet, best.s, best.u, best.v, req.items[p.itemIndex].id, p.area, cell); sheet.pieces.push(p); placed = true; }
      }
    }
    // the rectangles the sheets use (docs/nesting.md "Material cost": what is charged by default)
    const cost = sheets.reduce((a, s) => a + usedRect(s, cell).area, 0);
    return { sheets, cost };
  };

  const byAreaOf = (ps: Piece[]): Piece[] => [...ps].sort((a, b) => b.area - a.area || a.itemIndex - b.itemIndex);
  const byArea = byAreaOf(pieces);
  const byLength = [...pieces].sort((a, b) => b.boxLength - a.boxLength || b.area - a.area || a.itemIndex - b.itemIndex);
  const byBox = [...pieces].sort((a, b) => b.boxArea - a.boxArea || a.itemIndex - b.itemIndex);
  const maxEval = Math.max(1, req.max_evaluations ?? NEST_DEFAULT_EVALUATIONS);
  // Out of time when one more evaluation, at the mean length of those done, would end past the
  // budget: the search stops before the budget rather than one evaluation after it.
  const outOfTime = (): boolean => {
    if (req.time_budget_ms === undefined) return false;
    const elapsed = performance.now() - started;
    return elapsed + (evaluations > 0 ? elapsed / evaluations : 0) > req.time_budget_ms;
  };
  const pairsFirst: Array<[Piece[], ScoreMode]> = anyPairs ? [[byAreaOf(paired), 'envelope'], [byAreaOf(paired), 'envelope_across']] : [];
  const candidates: Array<[Piece[], ScoreMode]> = [...pairsFirst, [byArea, 'envelope'], [byArea, 'envelope_across'], [byArea, 'far'], [byLength, 'envelope'], [byBox, 'envelope_across'], [byArea, 'envelope_sum']];
  let best: { built: Built; order: Piece[]; mode: ScoreMode } | null = null;
  let evaluations = 0;
  let stoppedBy: NestResult['stopped_by'] = 'evaluations';
  const consider = (order: Piece[], mode: ScoreMode): void => {
    const built = build(order, mode);
    evaluations++;
    if (!best || built.sheets.length < best.built.sheets.length || (built.sheets.length === best.built.sheets.length && built.cost < best.built.cost - 1e-9)) best = { built, order, mode };
  };
  for (const [order, mode] of candidates) {
    if (evaluations >= maxEval) break;
    if (evaluations > 0 && outOfTime()) { stoppedBy = 'time'; break; }
    consider(order, mode);
  }
  // then shuffles of the best order: a few swaps of distinct pieces
  const rnd = random(req.seed ?? 1);
  while (evaluations < maxEval && pieces.length > 1) {
    if (outOfTime()) { stoppedBy = 'time'; break; }
    const b: { order: Piece[]; mode: ScoreMode } = best!;
    const order = [...b.order];
    const swaps = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < swaps; k++) {
      const i = Math.floor(rnd() * order.length), j = Math.floor(rnd() * order.length);
      [order[i], order[j]] = [order[j], order[i]];
    }
    consider(order, b.mode);
  }

  // The last sheet is charged by the rectangle it uses: nest its pieces again into strips of a few
  // widths (filled along the length), and keep the smallest rectangle.
  const last = (best as { built: Built } | null)?.built.sheets.at(-1);
  if (best && last && last.pieces.length > 1) {
    const chosenBuilt = (best as { built: Built }).built;
    const cellsArea = last.pieces.reduce((a, p) => a + Math.min(...p.shapes.map((s) => s.cols.length * s.rows.length)), 0);
    const narrowest = Math.max(...last.pieces.map((p) => Math.min(...p.shapes.map((s) => Math.min(s.rows.length, s.cols.length)))));
    const ideal = Math.sqrt(cellsArea);
    const widths = [...new Set(STRIP_FACTORS.map((f) => Math.round(Math.min(widthCells, Math.max(narrowest, ideal * f)))))];
    let lastCost = last.usedU * last.usedV;
    for (const w of widths) {
      if (evaluations > 0 && outOfTime()) { stoppedBy = 'time'; break; }
      for (const mode of ['far', 'envelope'] as const) {
        const strip = build(byAreaOf(last.pieces), mode, w);
        evaluations++;
        const s0 = strip.sheets[0];
        if (strip.sheets.length !== 1 || s0.usedU * s0.usedV >= lastCost) continue;
        // back to a full-width sheet: the strip's cells are the sheet's first rows
        const full = emptySheet(lengthCells, widthCells);
        Object.assign(full, { placements: s0.placements, pieces: s0.pieces, usedU: s0.usedU, usedV: s0.usedV, area: s0.area });
        chosenBuilt.sheets[chosenBuilt.sheets.length - 1] = full;
        lastCost = s0.usedU * s0.usedV;
      }
    }
  }

  const chosen = best as { built: Built } | null;
  const sheets: NestSheet[] = (chosen?.built.sheets ?? []).map((s) => {
    const r = usedRect(s, cell);
    return { placements: s.placements, used_length_mm: r.length, used_width_mm: r.width, parts_area_mm2: round6(s.area) };
  });
  return { sheet: { length_mm: L, width_mm: W }, sheets, findings, parts_area_mm2: round6(partsArea), evaluations, stopped_by: stoppedBy };
}

/**
 * The part of a sheet a nest uses: the rectangle inside the edge margins that holds every piece with
 * half the spacing around it (the rest of the sheet is a clean rectangle offcut; the margins are
 * charged with whole sheets only).
 */
function usedRect(s: SheetState, cell: number): { length: number; width: number; area: number } {
  const length = round6(s.usedU * cell);
  const width = round6(s.usedV * cell);
  return { length, width, area: length * width };
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
