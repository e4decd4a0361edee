// What a part's shape says it is, when it is bought-in hardware: a small solid of revolution (every
// face a cylinder or cone on one axis, a plane across it, or the helix and fillet surfaces of threads
// and rounds), its outside round, hexagonal or knurled, with a thread-sized bore (nuts, rivet nuts,
// standoffs, inserts, washers) or a thread-sized shank under a head (screws, studs). A block with a
// bore is not one: its flat sides are neither a hexagon nor a knurl.
import type { CylinderSurface, Solid, Vec3 } from '../geometry/model.ts';
import { coaxialCylinders } from '../geometry/axes.ts';
import { cross, dot, norm, point, sub } from '../geometry/vec.ts';
import type { HardwareKind } from './kinds.ts';
import { THREADS } from './threads.ts';

/** Hardware is small: its longest side at most this, mm (an M24 bolt 100 mm long is not bought by shape alone). */
export const MAX_HARDWARE_EXTENT_MM = 120;
/** Faces on no common axis may make up at most this share of the area (a stamped marking, a slot in a head). */
const FOREIGN_AREA_SHARE = 0.08;
/** A plane is across the axis / along it when |cos| of its normal to the axis is within this of 1 / 0. */
const ANGLE_COS_TOLERANCE = 1e-3;
/** Flats of a hexagon or knurl are at one distance from the axis, within this fraction. */
const FLATS_SAME_DISTANCE = 0.03;
/** A knurl or serration has at least this many flats; a hexagon six (split faces: a multiple of six). */
const KNURL_MIN_FLATS = 12;
/** A bore or shank matches a thread when within this of its major diameter or tap drill, mm. */
const THREAD_MATCH_MM = 0.12;
/** A washer is at most this thick for its outer diameter. */
const WASHER_THICKNESS_SHARE = 0.3;
/** A plain bushing (round outside, bore, nothing else) is hardware only when its wall is at least this share of the bore radius (thinner: a piece of tube). */
const BUSHING_MIN_WALL_SHARE = 0.35;

/** The thread whose major diameter or tap drill this diameter is, or null. */
export function threadOfDiameter(d: number, drillToo = true): string | null {
  // a bore is modelled at the tap drill more often than at the major diameter (2.5 mm: an M3 bore, not
  // an M2.5 cosmetic one); metric first, then unified
  for (const set of [METRIC, UNIFIED]) {
    if (drillToo) for (const t of set) if (Math.abs(d - t.tapDrillMm) <= THREAD_MATCH_MM) return t.size;
    for (const t of set) if (Math.abs(d - t.majorMm) <= THREAD_MATCH_MM) return t.size;
    // a bore drawn between the tap drill and the major diameter (a thread's nominal minor): that thread
    if (drillToo) for (const t of set) if (d > t.tapDrillMm && d < t.majorMm) return t.size;
  }
  return null;
}

const METRIC = THREADS.filter((t) => t.standard === 'metric'), UNIFIED = THREADS.filter((t) => t.standard === 'unified');

/** Major diameter of a thread size the shape or name gave, mm. */
export function majorDiameterOf(size: string): number | null {
  return THREADS.find((t) => t.size === size)?.majorMm ?? null;
}

export interface ShapeMatch {
  kind: HardwareKind;
  size: string | null;
  /** what was seen, in words: "hexagon 7.0 mm across flats, Ø3.3 mm bore, 3.2 mm long" */
  seen: string;
  /** the axis, model coordinates */
  axis: Vec3;
  origin: Vec3;
  /** along the axis from origin, mm */
  axialMin: number;
  axialMax: number;
  /** largest distance of the body from its axis, mm */
  outerRadius: number;
  boreDiameter: number | null;
}

const fmt = (x: number): string => x.toFixed(x < 10 ? 2 : 1);

/** The axis most of the round area shares: the coaxial group of cylinders with the largest area. */
function mainAxis(solid: Solid): CylinderSurface | null {
  const cyl = solid.faces.filter((f) => f.surface.kind === 'cylinder');
  let best: { c: CylinderSurface; area: number } | null = null;
  for (const f of cyl) {
    const c = f.surface as CylinderSurface;
    const area = cyl.filter((g) => coaxialCylinders(c, g.surface as CylinderSurface)).reduce((s, g) => s + g.area, 0);
    if (!best || area > best.area) best = { c, area };
  }
  return best?.c ?? null;
}

/**
 * The axis of a part the name already says is press-in hardware, when its shape is not read as such
 * (a maker's model with a knurl, undercut and chamfers in surfaces the shape reader does not take):
 * the axis of its largest coaxial round area and its extent along it. Null without a cylinder.
 */
export function mainAxisOf(solid: Solid): Pick<ShapeMatch, 'axis' | 'origin' | 'axialMin' | 'axialMax'> | null {
  const c = mainAxis(solid);
  if (!c) return null;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < solid.points.length / 3; i++) {
    const a = dot(sub(point(solid.points, i), c.origin), c.axis);
    lo = Math.min(lo, a); hi = Math.max(hi, a);
  }
  return Number.isFinite(lo) ? { axis: c.axis, origin: c.origin, axialMin: lo, axialMax: hi } : null;
}

/** What the shape says, when it is a small solid of revolution that looks like hardware; else null. */
export function hardwareFromShape(solid: Solid): ShapeMatch | null {
  const box = sub(solid.bbox.max, solid.bbox.min);
  if (Math.max(...box) > MAX_HARDWARE_EXTENT_MM || !(solid.volume > 0)) return null;
  const axisCyl = mainAxis(solid);
  if (!axisCyl) return null;
  const axis = axisCyl.axis, origin = axisCyl.origin;
  const radial = (p: Vec3): number => norm(cross(sub(p, origin), axis));
  const along = (p: Vec3): number => dot(sub(p, origin), axis);
  const convex: Array<{ r: number; area: number; len: number }> = [];
  const bores: Array<{ r: number; area: number }> = [];
  const flats: Array<{ d: number; area: number }> = [];
  let foreign = 0, other = 0, recess = 0;
  for (const f of solid.faces) {
    const s = f.surface;
    if (s.kind === 'cylinder' && coaxialCylinders(axisCyl, s)) {
      if (s.convex) convex.push({ r: s.radius, area: f.area, len: s.axialMax - s.axialMin });
      else bores.push({ r: s.radius, area: f.area });
    } else if (s.kind === 'cone' && Math.abs(Math.abs(dot(s.axis, axis)) - 1) < ANGLE_COS_TOLERANCE && radial(s.apex) < 0.05) {
      // chamfers, countersunk heads, drill points: round about the axis
    } else if (s.kind === 'plane' && Math.abs(Math.abs(dot(s.normal, axis)) - 1) < ANGLE_COS_TOLERANCE) {
      // a face across the axis: an end, a shoulder
    } else if (s.kind === 'plane' && Math.abs(dot(s.normal, axis)) < ANGLE_COS_TOLERANCE) {
      // a flat along the axis, at the plane's distance from it: facing away from the axis it is the
      // outside (a hexagon, a knurl); facing the axis, a drive recess (hex socket) inside a head
      const signed = s.offset - dot(s.normal, origin);
      if (signed > 0) flats.push({ d: signed, area: f.area });
      else recess += f.area;
    } else if (s.kind === 'other') {
      other += f.area; // thread helices, fillets and tori of a turned part
    } else foreign += f.area;
  }
  if (foreign > FOREIGN_AREA_SHARE * solid.area) return null;
  let lo = Infinity, hi = -Infinity, rMax = 0;
  for (let i = 0; i < solid.points.length / 3; i++) {
    const p = point(solid.points, i);
    const a = along(p); lo = Math.min(lo, a); hi = Math.max(hi, a);
    rMax = Math.max(rMax, radial(p));
  }
  const length = hi - lo;
  // flats: a hexagon (six at one distance), a knurl (many), or not a turned part at all
  let outside: 'round' | 'hex' | 'knurl' = 'round';
  let acrossFlats = 0;
  if (flats.length > 0) {
    const d = flats.map((f) => f.d).sort((a, b) => a - b);
    const same = d[d.length - 1] - d[0] <= FLATS_SAME_DISTANCE * d[d.length - 1];
    if (!same) return null;
    if (flats.length >= KNURL_MIN_FLATS) outside = 'knurl';
    else if (flats.length % 6 === 0) { outside = 'hex'; acrossFlats = 2 * d[0]; }
    else return null;
  }
  const bore = bores.length ? bores.reduce((a, b) => (b.area > a.area ? b : a)) : null;
  const boreD = bore ? 2 * bore.r : null;
  const radii = [...new Set(convex.map((c) => Number(c.r.toFixed(2))))].sort((a, b) => a - b);
  const threaded = other > 0.15 * solid.area;
  const outer = outside === 'hex' ? `hexagon ${fmt(acrossFlats)} mm across flats` : outside === 'knurl' ? `knurled Ø${fmt(2 * rMax)} mm` : `round Ø${fmt(2 * rMax)} mm`;
  const base = { axis, origin, axialMin: lo, axialMax: hi, outerRadius: rMax, boreDiameter: boreD };
  if (boreD !== null) {
    const size = threadOfDiameter(boreD);
    const seen = `${outer}, Ø${fmt(boreD)} mm bore${size ? ` (${size})` : ''}, ${fmt(length)} mm long`;
    if (!size && !threaded) return null;
    const od = 2 * rMax;
    if (outside === 'hex') return { ...base, kind: length > 1.5 * acrossFlats ? 'standoff' : 'nut', size, seen };
    if (outside === 'knurl') return { ...base, kind: length > 2 * od ? 'standoff' : 'threaded_insert', size, seen };
    if (radii.length <= 1) {
      if (length <= WASHER_THICKNESS_SHARE * od) return { ...base, kind: 'washer', size, seen };
      // a plain bushing: thick-walled, short; a thin wall is a piece of tube, for the tube recogniser
      if (rMax - bore!.r < BUSHING_MIN_WALL_SHARE * bore!.r || length > 4 * od) return null;
      return { ...base, kind: 'standoff', size, seen };
    }
    // a collar over a body: a flanged nut (self-clinching, short) or a rivet nut (long thin body)
    const collar = radii[radii.length - 1] * 2, body = radii[0] * 2;
    const withCollar = `${seen}, collar Ø${fmt(collar)} over body Ø${fmt(body)} mm`;
    if (length <= 0.6 * collar) return { ...base, kind: 'nut', size, seen: withCollar };
    if (length <= 2.5 * collar) return { ...base, kind: 'rivet_nut', size, seen: withCollar };
    return { ...base, kind: 'standoff', size, seen: withCollar };
  }
  // no bore: a shank under a head (screw, bolt, stud) or a plain pin
  // the shank: the thickest round section of a thread's size below the head (a modelled thread leaves
  // short cylinders at its major and minor diameters), else the longest round section
  const headR = radii.length > 1 ? radii[radii.length - 1] : Infinity;
  const threadSized = convex.filter((c) => c.r < headR - 1e-3 && threadOfDiameter(2 * c.r, false)).sort((a, b) => b.r - a.r);
  const shank = threadSized[0] ?? (convex.length ? convex.reduce((a, b) => (b.len > a.len ? b : a)) : null);
  if (!shank) return null;
  const size = threadOfDiameter(2 * shank.r, false);
  const headed = outside === 'hex' || radii.some((r) => r > shank.r * 1.25);
  const seen = `${outer}, Ø${fmt(2 * shank.r)} mm shank${size ? ` (${size})` : ''}${headed ? ` under a head${recess > 0 ? ' with a drive recess' : ''}` : ''}, ${fmt(length)} mm long`;
  if (headed && (size || threaded)) return { ...base, kind: outside === 'hex' ? 'bolt' : 'screw', size, seen };
  if (!headed && radii.length === 1 && length >= 2 * 2 * shank.r && shank.r * 2 <= 25) return { ...base, kind: threaded ? 'screw' : 'pin', size: threaded ? size : null, seen };
  return null;
}
