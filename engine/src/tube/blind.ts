// Partial-depth work in a tube's wall: recesses and pockets, blind holes, counterbores, engraving. A
// tube laser cuts through the wall and can make none of these; the tube is still recognised from its
// walls, and each feature is named and measured here for DFM.
import type { BlindFeature, BlindFeatureKind, CylinderSurface, Solid, Vec3 } from '../geometry/model.ts';
import { cross, dot, norm, point, scale, sub, hypot2 } from '../geometry/vec.ts';
import { coaxialCylinders, PARALLEL_AXIS_TOLERANCE } from '../geometry/axes.ts';
import { faceComponents } from '../geometry/components.ts';
import { FULL_TURN_TOLERANCE_DEGREES } from '../geometry/fit.ts';
import type { Profile } from './profile.ts';
import { outerPerimeter, perimeterPosition } from './unroll.ts';

const wrap = (x: number, period: number): number => x - period * Math.round(x / period);
/** Smallest and largest of many numbers (no argument spread: a large face has many vertices). */
const range = (v: number[]): [number, number] => v.reduce<[number, number]>((r, x) => [Math.min(r[0], x), Math.max(r[1], x)], [Infinity, -Infinity]);

/** Slack around the wall band (outer skin to inner skin), mm. */
const WALL_BAND_TOLERANCE_MM = 5e-3;
/** A wall cylinder this close to perpendicular to the tube axis is a radial bore (cosine). */
const RADIAL_COS = 1e-3;
/** A recess floor at most this wide is engraving (a stroke), mm (as on sheets). */
const ENGRAVING_MAX_STROKE_MM = 2;
/** A face the opening looks at within 60 degrees (|cos| of its normal with the outward direction above this) is floor, else wall. */
const FLOOR_MIN_COS = 0.5;
/** Wall cylinders whose radii differ by less than this are one bore's wall, mm. */
const SAME_RADIUS_MM = 1e-3;

type Section = { y: number; z: number };

function sectionOf(p: Profile, q: Vec3): Section {
  return { y: dot(q, p.e2) - dot(p.center, p.e2), z: dot(q, p.e3) - dot(p.center, p.e3) };
}

/** Depth below the outer skin and height above the inner skin (both >= 0 inside the wall), mm. */
function wallDepths(p: Profile, s: Section): { out: number; in: number } {
  if (p.outerDiameter !== null) {
    const r = hypot2(s.y, s.z);
    return { out: p.outerDiameter / 2 - r, in: r - (p.outerDiameter / 2 - p.wall) };
  }
  const a = p.outerWidth! / 2, b = p.outerHeight! / 2, r = p.cornerRadius ?? 0;
  return { out: -roundedBoxDistance(s, a, b, r), in: roundedBoxDistance(s, a - p.wall, b - p.wall, Math.max(r - p.wall, 0)) };
}

/** Signed distance from a rounded rectangle (half sizes a, b, corner radius r), positive outside, mm. */
function roundedBoxDistance(s: Section, a: number, b: number, r: number): number {
  const qx = Math.abs(s.y) - (a - r), qy = Math.abs(s.z) - (b - r);
  return hypot2(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Whether a face lies in the tube's wall (between its skins): every vertex and triangle centre (an end cap's corners do). */
export function wallBand(p: Profile): (solid: Solid, face: number) => boolean {
  const inside = (q: Vec3) => { const d = wallDepths(p, sectionOf(p, q)); return d.out >= -WALL_BAND_TOLERANCE_MM && d.in >= -WALL_BAND_TOLERANCE_MM; };
  return (solid, face) => [...solid.faces[face].vertices].every((v) => inside(point(solid.points, v)))
    && [...solid.faces[face].triangles].every((t) => {
      const a = point(solid.points, solid.triangles[t * 3]), b = point(solid.points, solid.triangles[t * 3 + 1]), c = point(solid.points, solid.triangles[t * 3 + 2]);
      return inside([(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3]);
    });
}

/** A face reaching from the outer skin to the inner one is a cut through the wall, not blind work. */
export function wallSpanning(solid: Solid, face: number, p: Profile): boolean {
  let lo = Infinity, hi = -Infinity;
  for (const v of solid.faces[face].vertices) {
    const d = wallDepths(p, sectionOf(p, point(solid.points, v)));
    lo = Math.min(lo, d.out); hi = Math.max(hi, d.out);
  }
  return lo <= WALL_BAND_TOLERANCE_MM && hi >= p.wall - WALL_BAND_TOLERANCE_MM;
}

/** Outward normal of the outer skin nearest a point. */
function outward(p: Profile, q: Vec3): Vec3 {
  const s = sectionOf(p, q);
  if (p.outerDiameter !== null) {
    const r = hypot2(s.y, s.z) || 1;
    return [p.e2[0] * s.y / r + p.e3[0] * s.z / r, p.e2[1] * s.y / r + p.e3[1] * s.z / r, p.e2[2] * s.y / r + p.e3[2] * s.z / r];
  }
  const a = p.outerWidth! / 2, b = p.outerHeight! / 2;
  return a - Math.abs(s.y) < b - Math.abs(s.z) ? scale(p.e2, Math.sign(s.y) || 1) : scale(p.e3, Math.sign(s.z) || 1);
}

/** Blind faces grouped into features, measured on the tube's normalized frame and unrolled wall. */
export function tubeBlindFeatures(solid: Solid, blindFaces: Set<number>, outerSkin: Set<number>, innerSkin: Set<number>, d: Vec3, p: Profile, start: number): BlindFeature[] {
  const groups = faceComponents(solid, blindFaces);
  const perimeter = outerPerimeter(p);
  const out: BlindFeature[] = groups.map((faces) => {
    const touchesOuter = faces.some((f) => solid.faces[f].neighbours.some((g) => outerSkin.has(g)));
    const touchesInner = faces.some((f) => solid.faces[f].neighbours.some((g) => innerSkin.has(g)));
    const side = touchesOuter ? 'outside' as const : 'inside' as const;
    const depthOf = (q: Vec3) => { const w = wallDepths(p, sectionOf(p, q)); return side === 'outside' ? w.out : w.in; };
    // the depth of the blind part: not a counterbore's through bore under it
    const through = touchesOuter && touchesInner ? new Set(faces.filter((f) => solid.faces[f].neighbours.some((g) => innerSkin.has(g)))) : new Set<number>();
    let volume = 0, depth = 0;
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
    const xs: number[] = [], ss: number[] = [];
    for (const f of faces) {
      for (const t of solid.faces[f].triangles) {
        const a = point(solid.points, solid.triangles[t * 3]), b = point(solid.points, solid.triangles[t * 3 + 1]), c = point(solid.points, solid.triangles[t * 3 + 2]);
        const n = cross(sub(b, a), sub(c, a));
        const g: Vec3 = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
        const o = outward(p, g);
        volume += (dot(n, side === 'outside' ? o : scale(o, -1)) / 2) * depthOf(g);
      }
      for (const v of solid.faces[f].vertices) {
        const q = point(solid.points, v);
        for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], q[k]); max[k] = Math.max(max[k], q[k]); }
        if (!through.has(f)) depth = Math.max(depth, depthOf(q));
        const s = sectionOf(p, q);
        xs.push(dot(q, d) - start);
        // unwrapped around the first point: a feature across the seam stays one piece
        const pos = perimeterPosition(p, s.y, s.z);
        ss.push(ss.length === 0 ? pos : ss[0] + wrap(pos - ss[0], perimeter));
      }
      // a floor plane along the axis of a round tube is deepest on the line nearest the axis
      const surface = solid.faces[f].surface;
      if (p.outerDiameter !== null && surface.kind === 'plane' && Math.abs(dot(surface.normal, d)) < RADIAL_COS && !through.has(f)) {
        const dist = Math.abs(surface.offset - dot(surface.normal, p.center));
        const foot = sub(p.center, scale(surface.normal, dot(p.center, surface.normal) - surface.offset));
        const across = cross(d, surface.normal);
        const ts = [...solid.faces[f].vertices].map((v) => dot(sub(point(solid.points, v), foot), across));
        const [t0, t1] = range(ts);
        if (t0 < 0 && t1 > 0) depth = Math.max(depth, (side === 'outside' ? p.outerDiameter / 2 - dist : dist - (p.outerDiameter / 2 - p.wall)));
      }
    }
    const center: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
    const walls = faces.map((f) => solid.faces[f].surface).filter((s): s is CylinderSurface => s.kind === 'cylinder' && Math.abs(dot(s.axis, d)) < RADIAL_COS);
    const radii = [...new Set(walls.map((w) => Number(w.radius.toFixed(4))))].sort((a, b) => a - b);
    const coaxial = walls.length > 0 && walls.every((w) => coaxialCylinders(walls[0], w));
    const turn = walls.filter((w) => Math.abs(w.radius - radii[radii.length - 1]) < SAME_RADIUS_MM).reduce((s, w) => s + w.spanDegrees, 0);
    let kind: BlindFeatureKind;
    if (coaxial && touchesOuter && touchesInner && radii.length >= 2) kind = 'counterbore';
    else if (coaxial && radii.length === 1 && turn >= 360 - FULL_TURN_TOLERANCE_DEGREES) kind = 'blind_hole';
    else {
      // floor: the faces the opening looks at (their projected area), walls: the rest
      let floor = 0, wall = 0;
      for (const f of faces) {
        const face = solid.faces[f];
        const q = point(solid.points, face.vertices[0]);
        const c = face.surface.kind === 'plane' ? Math.abs(dot(face.surface.normal, outward(p, q))) : face.surface.kind === 'cylinder' && Math.abs(dot(face.surface.axis, d)) > 1 - PARALLEL_AXIS_TOLERANCE ? 1 : 0;
        if (c > FLOOR_MIN_COS) floor += face.area; else wall += face.area;
      }
      kind = wall > 0 && (2 * floor * depth) / wall <= ENGRAVING_MAX_STROKE_MM ? 'engraving' : 'pocket';
    }
    const round = kind === 'counterbore' || kind === 'blind_hole';
    const [x0, x1] = range(xs), [s0, s1] = range(ss);
    const x = (x0 + x1) / 2, s = (((s0 + s1) / 2) % perimeter + perimeter) % perimeter;
    const ext = [x1 - x0, s1 - s0].sort((a, b) => a - b);
    const sc = sectionOf(p, center);
    return {
      id: 0, kind, faceIds: faces, position: [dot(center, d) - start, sc.y, sc.z], flatCenter: [x, s],
      size: round ? 2 * radii[radii.length - 1] : ext[0], length: round ? null : ext[1], depth, side, holeId: null, volume,
    };
  });
  out.sort((a, b) => a.flatCenter[0] - b.flatCenter[0] || a.flatCenter[1] - b.flatCenter[1]);
  out.forEach((f, i) => { f.id = i + 1; });
  return out;
}

/**
 * Length of the holes cut through the wall under counterbores: the edge between the through bore and
 * the counterbore's floor (the outer skin has no contour there, the counterbore's mouth being blind), mm.
 */
export function counterboreThroughLength(solid: Solid, features: BlindFeature[], innerSkin: Set<number>): number {
  let sum = 0;
  for (const f of features) {
    if (f.kind !== 'counterbore') continue;
    const own = new Set(f.faceIds);
    const bore = new Set(f.faceIds.filter((id) => solid.faces[id].neighbours.some((g) => innerSkin.has(g))));
    for (const e of solid.edges) {
      const [a, b] = e.faces;
      if (!((bore.has(a) && own.has(b) && !bore.has(b)) || (bore.has(b) && own.has(a) && !bore.has(a)))) continue;
      for (let i = 1; i < e.vertices.length; i++) sum += norm(sub(point(solid.points, e.vertices[i]), point(solid.points, e.vertices[i - 1])));
    }
  }
  return sum;
}
