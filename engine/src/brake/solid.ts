// The 3D check of a bend step, for parts bent on more than one axis (boxes, trays): the flanges
// already standing on the base, folded to that step and placed on the die in 3D, against the tools
// as solids (each tool's profile extruded along its set-up length, the beams along the whole bed).
// The cross-sections (./section.ts) cannot see these flanges: they stand across the ends of the
// bend's line or beside it, outside every section. docs/press-brake.md "What is checked" says what
// this model is and what it leaves out.
//
// Each flange is a flat rectangle (its bend line by its length beyond the line, a sharp corner on
// the line), the mid-surface of the sheet. A tool is a prism: a profile polygon in the plane across
// the bend (x, z) times an interval along it (y). A convex polygon meets such a prism exactly when
// its part inside the y interval, projected on (x, z), meets the profile, so the test is exact for
// the rectangle; the clearance (half the thickness less the contact tolerance) is applied in the
// projection and to the interval, which errs toward reporting a hit.
import type { BendInfo } from '../contract.ts';
import type { Vec2 } from '../catalog/press-brake.ts';
import type { Obstacle } from './collide.ts';
import { CONTACT_TOL_MM } from './collide.ts';
import { pointInPolygon, segSegDist, translate, type P } from './plane.ts';
import { parallel, zoneWidth, type LineFrame, type Piece, type Section } from './section.ts';
import type { Tools } from './collide.ts';

/** A bend line's midpoint within this of the base's side of another bend line still counts as on it, mm. */
const SIDE_TOL_MM = 0.5;
/** Strips shorter than this give no direction to place the base by, mm. */
const MIN_STRIP_MM = 1e-6;
/** The beams reach this far up and down, mm (as in ./collide.ts). */
const BEAM_REACH_MM = 5000;

type V3 = readonly [number, number, number];

/** A flange standing on the base: the bend it is folded about, which way it points from the base on the flat, and how far. */
export interface Flange { bend: BendInfo; frame: LineFrame; away: P; length: number; reach: number }

/**
 * The flanges of a single-level part (every bend borders one base face, none beyond another: a
 * box or a tray), or null when the part is not one, or is a profile (all bend lines parallel),
 * which the cross-sections see whole.
 */
export function singleLevelFlanges(bends: BendInfo[], frames: Map<number, LineFrame | null>, t: number, k: number): Map<number, Flange> | null {
  if (bends.length < 2) return null;
  const fs = bends.map((b) => frames.get(b.id) ?? null);
  if (fs.some((f) => f === null)) return null;
  const framed = fs as LineFrame[];
  if (framed.every((f) => parallel(framed[0], f))) return null;
  const mids: P[] = framed.map((f) => [f.a[0] + f.u[0] * f.length / 2, f.a[1] + f.u[1] * f.length / 2]);
  const centre: P = [mids.reduce((s, m) => s + m[0], 0) / mids.length, mids.reduce((s, m) => s + m[1], 0) / mids.length];
  const out = new Map<number, Flange>();
  for (const [i, b] of bends.entries()) {
    const f = framed[i];
    const side = (p: P): number => (p[0] - f.a[0]) * f.n[0] + (p[1] - f.a[1]) * f.n[1];
    const sc = side(centre);
    if (Math.abs(sc) <= SIDE_TOL_MM || !b.flange_lengths_mm) return null;
    // every other bend on the base's side of this one: nothing folds beyond this flange
    if (mids.some((m, j) => j !== i && side(m) * Math.sign(sc) < -SIDE_TOL_MM)) return null;
    const length = sc > 0 ? b.flange_lengths_mm[1] : b.flange_lengths_mm[0];
    const away: P = sc > 0 ? [-f.n[0], -f.n[1]] : [f.n[0], f.n[1]];
    out.set(b.id, { bend: b, frame: f, away, length, reach: length + zoneWidth(b, t, k) / 2 });
  }
  return out;
}

/** The base's placement: flat (s across the bend's line, w along it, e off the top face) -> (x, y, z) on the die. */
interface BasePlacement { origin: P; sAt: number; dir: P; normal: P }

/**
 * Where the base strip of `sec` (the strip beside the current bend on the base's side) lies after
 * foldAndPlace: a point on it, its flat s there, its direction of increasing s and the image of the
 * flat's top normal. `flip`: the part is turned over; `mirror`: front and back swapped.
 */
export function basePlacement(sec: Section, pieces: Piece[], current: number, baseSide: 1 | -1, flip: 1 | -1, mirror: boolean): BasePlacement | null {
  const ci = sec.bends.findIndex((x) => x.id === current);
  const si = baseSide > 0 ? ci + 1 : ci;
  if (sec.strips[si] < MIN_STRIP_MM) return null;
  const piece = pieces.find((p) => p.prim === 2 * si);
  if (!piece) return null;
  // flat s of the strip's end (the placed piece runs toward increasing s)
  const sEnd = si < sec.bends.length ? sec.bends[si].s - sec.bends[si].zone / 2 : sec.bends[si - 1].s + sec.bends[si - 1].zone / 2 + sec.strips[si];
  const len = Math.hypot(piece.b[0] - piece.a[0], piece.b[1] - piece.a[1]);
  if (len < MIN_STRIP_MM) return null;
  const dir: P = [(piece.b[0] - piece.a[0]) / len, (piece.b[1] - piece.a[1]) / len];
  // unmirrored, the top normal is the direction turned a quarter counter-clockwise (times flip); a
  // mirror reflects x of both
  const ux: P = mirror ? [-dir[0], dir[1]] : dir;
  const n0: P = [-ux[1] * flip, ux[0] * flip];
  const normal: P = mirror ? [-n0[0], n0[1]] : n0;
  return { origin: piece.b, sAt: sEnd, dir, normal };
}

/** The flange's rectangle folded by its bend's full angle, in (x, y, z) on the die. */
function flangeQuad(fl: Flange, bf: LineFrame, place: BasePlacement): V3[] {
  const g = fl.frame;
  const theta = (fl.bend.angle_degrees * Math.PI) / 180;
  const sigma = fl.bend.direction === 'up' ? 1 : -1;
  const toFlat = (p: P): [number, number] => [(p[0] - bf.a[0]) * bf.n[0] + (p[1] - bf.a[1]) * bf.n[1], (p[0] - bf.a[0]) * bf.u[0] + (p[1] - bf.a[1]) * bf.u[1]];
  const awayS = fl.away[0] * bf.n[0] + fl.away[1] * bf.n[1], awayW = fl.away[0] * bf.u[0] + fl.away[1] * bf.u[1];
  const q1 = toFlat(g.a), q2 = toFlat([g.a[0] + g.u[0] * g.length, g.a[1] + g.u[1] * g.length]);
  const c = Math.cos(theta) * fl.reach, e = sigma * Math.sin(theta) * fl.reach;
  const corners: Array<[number, number, number]> = [
    [q1[0], q1[1], 0], [q2[0], q2[1], 0], [q2[0] + awayS * c, q2[1] + awayW * c, e], [q1[0] + awayS * c, q1[1] + awayW * c, e],
  ];
  return corners.map(([s, w, ee]) => {
    const ds = s - place.sAt;
    return [place.origin[0] + place.dir[0] * ds + place.normal[0] * ee, w, place.origin[1] + place.dir[1] * ds + place.normal[1] * ee] as const;
  });
}

/** The part of a convex polygon with y0 <= y <= y1, projected on (x, z). */
function clipY(poly: V3[], y0: number, y1: number): P[] {
  const clip = (pts: V3[], keep: (p: V3) => number): V3[] => {
    const out: V3[] = [];
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i], b = pts[(i + 1) % pts.length];
      const da = keep(a), db = keep(b);
      if (da >= 0) out.push(a);
      if ((da >= 0) !== (db >= 0)) {
        const u = da / (da - db);
        out.push([a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u]);
      }
    }
    return out;
  };
  return clip(clip(poly, (p) => p[1] - y0), (p) => y1 - p[1]).map((p) => [p[0], p[2]] as const);
}

/** Distance from a convex polygon (possibly flat to a segment) to a polygon's region, 0 when they overlap. */
function polyDist(a: P[], b: readonly Vec2[]): number {
  if (!a.length) return Infinity;
  if (a.some((p) => pointInPolygon(p, b))) return 0;
  if (a.length >= 3 && b.some((p) => pointInPolygon(p, a as Vec2[]))) return 0;
  let best = Infinity;
  for (let i = 0; i < a.length; i++) {
    const p = a[i], q = a[(i + 1) % a.length];
    for (let j = 0, k = b.length - 1; j < b.length; k = j++) best = Math.min(best, segSegDist(p, q, b[k], b[j]));
  }
  return best;
}

export interface ToolSpan { punch: [number, number]; die: [number, number] }

/**
 * The first standing flange that meets a tool or a beam, or null. `flanges`: the flanges to check
 * (already bent, not in the bend's cross-sections); `bf`: the current bend's line frame; `span`:
 * where the punch and the die lie along that line (flat w, mm).
 */
export function solidHit(flanges: Flange[], bf: LineFrame, place: BasePlacement, tools: Tools, depth: number, t: number, span: ToolSpan): { obstacle: Obstacle; flange: Flange } | null {
  const clear = t / 2 - CONTACT_TOL_MM;
  const { punch, die, brake } = tools;
  const mid = bf.length / 2;
  const bed: [number, number] = [mid - brake.bed_length_mm / 2, mid + brake.bed_length_mm / 2];
  const solids: Array<[Obstacle, readonly Vec2[], [number, number]]> = [
    ['punch', translate(punch.profile_mm, 0, -depth), span.punch],
    ['die', die.profile_mm, span.die],
    ['upper_beam', [[-brake.upper_beam_half_width_mm, -depth + punch.height_mm], [brake.upper_beam_half_width_mm, -depth + punch.height_mm], [brake.upper_beam_half_width_mm, BEAM_REACH_MM], [-brake.upper_beam_half_width_mm, BEAM_REACH_MM]], bed],
    ['lower_beam', [[-brake.lower_beam_half_width_mm, -BEAM_REACH_MM], [brake.lower_beam_half_width_mm, -BEAM_REACH_MM], [brake.lower_beam_half_width_mm, -die.height_mm], [-brake.lower_beam_half_width_mm, -die.height_mm]], bed],
  ];
  for (const fl of flanges) {
    const quad = flangeQuad(fl, bf, place);
    for (const [obstacle, poly, [y0, y1]] of solids) {
      const shadow = clipY(quad as V3[], y0 - clear, y1 + clear);
      if (shadow.length && polyDist(shadow, poly) < clear) return { obstacle, flange: fl };
    }
  }
  return null;
}
