// The part's cross-section across a bend, folded to a step of the sequence and placed on the die.
// Built from the design's bend lines and flange lengths (BendInfo.line_mm, flange_lengths_mm): a
// section across bend b at a point of its line crosses every bend parallel to b whose line spans that
// point; between them lie flat strips of known width, and beyond the outermost ones the flanges'
// measured lengths. docs/press-brake.md "What is checked" says what this sees and what it does not.
import type { BendInfo } from '../contract.ts';
import type { P } from './plane.ts';

/** Bend lines closer than this to parallel share sections, degrees. */
const PARALLEL_TOL_DEG = 2;
/** A section point may lie this far beyond a bend line's end and still cross it, mm. */
const SPAN_TOL_MM = 0.5;
/** Arcs are drawn with chords that stray at most this far from the arc, mm (well inside the contact tolerance). */
const ARC_SAGITTA_MM = 0.05;
/** and of at most this angle, degrees */
const ARC_STEP_MAX_DEG = 30;

export interface SectionBend { id: number; angle: number; sign: 1 | -1; r: number; s: number; zone: number }
/** A chain across one section: strips[i] lies before bends[i], strips[n] after the last, in +s order. */
export interface Section { bends: SectionBend[]; strips: number[]; at: number }

export interface LineFrame { a: P; u: P; n: P; length: number }

export function lineFrame(b: BendInfo): LineFrame | null {
  const l = b.line_mm;
  if (!l) return null;
  const [a, e] = l;
  const length = Math.hypot(e[0] - a[0], e[1] - a[1]);
  if (length === 0) return null;
  const u: P = [(e[0] - a[0]) / length, (e[1] - a[1]) / length];
  return { a: [a[0], a[1]], u, n: [-u[1], u[0]], length };
}

export function parallel(f: LineFrame, g: LineFrame): boolean {
  return Math.abs(f.u[0] * g.u[1] - f.u[1] * g.u[0]) < Math.sin((PARALLEL_TOL_DEG * Math.PI) / 180);
}

/** Width of a bend's zone on the flat: its allowance at the part's K-factor, mm. */
export function zoneWidth(b: BendInfo, t: number, k: number): number {
  return (b.angle_degrees * Math.PI / 180) * (b.radius_mm + k * t);
}

/**
 * The section across `bend` at fraction `at` of its line, or null when a bend of it lacks a line or
 * flange lengths. `frames` holds every bend's line frame (null when absent).
 */
export function sectionAcross(bend: BendInfo, at: number, bends: BendInfo[], frames: Map<number, LineFrame | null>, t: number, k: number): Section | null {
  const f = frames.get(bend.id);
  if (!f) return null;
  const p: P = [f.a[0] + f.u[0] * f.length * at, f.a[1] + f.u[1] * f.length * at];
  const members: Array<{ b: BendInfo; s: number; g: LineFrame }> = [];
  for (const c of bends) {
    const g = frames.get(c.id);
    if (!g || !parallel(f, g)) continue;
    // where the section line (through p along f.n) meets c's line, along c
    const w = (p[0] - g.a[0]) * g.u[0] + (p[1] - g.a[1]) * g.u[1];
    if (w < -SPAN_TOL_MM || w > g.length + SPAN_TOL_MM) continue;
    const s = (g.a[0] - p[0]) * f.n[0] + (g.a[1] - p[1]) * f.n[1];
    members.push({ b: c, s, g });
  }
  members.sort((x, y) => x.s - y.s || x.b.id - y.b.id);
  const sb: SectionBend[] = members.map(({ b, s }) => ({
    id: b.id, angle: (b.angle_degrees * Math.PI) / 180, sign: b.direction === 'up' ? 1 : -1, r: b.radius_mm, s, zone: zoneWidth(b, t, k),
  }));
  const first = members[0], last = members[members.length - 1];
  const outer = (m: typeof first, toward: 1 | -1): number | null => {
    const fl = m.b.flange_lengths_mm;
    if (!fl) return null;
    // flange_lengths_mm[0] lies on the left of the line's a -> b, along its own normal
    const leftIsPlus = m.g.n[0] * f.n[0] + m.g.n[1] * f.n[1] > 0;
    return (leftIsPlus === (toward === 1)) ? fl[0] : fl[1];
  };
  const before = outer(first, -1), after = outer(last, 1);
  if (before === null || after === null) return null;
  const strips = [before];
  for (let i = 0; i + 1 < sb.length; i++) strips.push(Math.max(0, sb[i + 1].s - sb[i].s - sb[i].zone / 2 - sb[i + 1].zone / 2));
  strips.push(after);
  return { bends: sb, strips, at };
}

/** One piece of the folded section's mid-line: `prim` is 2i for strip i, 2i + 1 for bend i. */
export interface Piece { a: P; b: P; prim: number }

/**
 * The section's mid-line folded: bends in `folded` turned by `fraction` (the bend being made) or
 * fully (those made before), the rest flat. Placed with the bend `current` on the die: its arc's
 * inside up, symmetric about x = 0, its inner surface's lowest point at (0, -depth) where the flanges'
 * outer faces pass over the die shoulders at x = +-V/2, z = 0. `mirror` swaps front and back.
 */
export function foldAndPlace(sec: Section, folded: Set<number>, current: number, fraction: number, t: number, v: number, mirror: boolean): { pieces: Piece[]; depth: number } {
  const ci = sec.bends.findIndex((b) => b.id === current);
  const cb = sec.bends[ci];
  // the bend being made always turns up toward the punch: a down bend is made with the part upside down
  const flip = cb.sign;
  const pts: P[] = [];
  const prims: number[] = [];
  let x = 0, z = 0, h = 0;
  pts.push([x, z]);
  let centre: P = [0, 0], midHeading = 0;
  const line = (len: number, prim: number): void => {
    x += Math.cos(h) * len; z += Math.sin(h) * len;
    pts.push([x, z]); prims.push(prim);
  };
  for (let i = 0; i <= sec.bends.length; i++) {
    line(sec.strips[i], 2 * i);
    if (i === sec.bends.length) break;
    const b = sec.bends[i];
    const turn = b.id === current ? b.angle * fraction : folded.has(b.id) ? b.angle : 0;
    const sgn = b.sign * flip;
    const R = b.r + t / 2;
    if (turn === 0) {
      if (b.id === current) {
        // not yet bent: the zone's middle, its centre of curvature above it
        const mx = x + Math.cos(h) * b.zone / 2, mz = z + Math.sin(h) * b.zone / 2;
        centre = [mx - Math.sin(h) * R, mz + Math.cos(h) * R]; midHeading = h;
      }
      line(b.zone, 2 * i + 1);
      continue;
    }
    // centre on the inside of the turn: left of the heading for a CCW (sgn > 0) turn
    const c: P = [x - Math.sin(h) * R * sgn, z + Math.cos(h) * R * sgn];
    const step = Math.min((ARC_STEP_MAX_DEG * Math.PI) / 180, 2 * Math.acos(Math.max(-1, 1 - ARC_SAGITTA_MM / R)));
    const steps = Math.max(1, Math.ceil(turn / step));
    if (b.id === current) { centre = c; midHeading = h + (sgn * turn) / 2; }
    for (let k = 1; k <= steps; k++) {
      const hk = h + (sgn * turn * k) / steps;
      x = c[0] + Math.sin(hk) * R * sgn; z = c[1] - Math.cos(hk) * R * sgn;
      pts.push([x, z]); prims.push(2 * i + 1);
    }
    h += sgn * turn;
  }
  // the current bend turns CCW (its inside up): rotate its mid heading to +x, its centre to (0, zc)
  const phi = (cb.angle * fraction) / 2;
  const depth = cb.r + ((v / 2) * Math.sin(phi) - (cb.r + t)) / Math.cos(phi);
  const zc = -depth + cb.r;
  const cos = Math.cos(-midHeading), sin = Math.sin(-midHeading);
  const place = ([px, pz]: P): P => {
    const dx = px - centre[0], dz = pz - centre[1];
    const X = dx * cos - dz * sin, Z = dx * sin + dz * cos + zc;
    return [mirror ? -X : X, Z];
  };
  const placed = pts.map(place);
  const pieces: Piece[] = prims.map((prim, i) => ({ a: placed[i], b: placed[i + 1], prim }));
  return { pieces, depth };
}
