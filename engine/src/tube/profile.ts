// Profile of a straight tube from the surfaces of its outer and inner skins (exact fitted
// surfaces, not the tessellated section): round or rectangular, outer size, wall, corner radius,
// and the section centre and orientation that define the normalized frame.
import type { CylinderSurface, PlaneSurface, Surface, Vec3 } from '../geometry/model.ts';
import { dot, cross, normalize, sub, scale, add, basisOf } from '../geometry/vec.ts';
import { parallelDirections, distanceToLine } from './surfaces.ts';
import { COAXIAL_TOLERANCE_MM, WALL_UNIFORMITY_TOLERANCE_MM, SQUARE_TOLERANCE_MM, SAME_SURFACE_TOLERANCE_MM } from './tolerances.ts';

export interface Profile {
  profile: 'round' | 'square' | 'rectangular';
  outerDiameter: number | null;
  outerWidth: number | null;
  outerHeight: number | null;
  wall: number;
  cornerRadius: number | null;
  /** a point on the section centre line */
  center: Vec3;
  /** unit directions of the width (Y) and height (Z) in the source frame */
  e2: Vec3;
  e3: Vec3;
}

export type ProfileResult = { ok: true; profile: Profile } | { ok: false; message: string };

const fmt = (v: number) => Number(v.toFixed(3)).toString();

/** Planes split into antiparallel pairs; returns null unless they form exactly two perpendicular pairs. */
function planePairs(planes: PlaneSurface[]): Array<{ n: Vec3; a: PlaneSurface; b: PlaneSurface }> | null {
  if (planes.length !== 4) return null;
  const pairs: Array<{ n: Vec3; a: PlaneSurface; b: PlaneSurface }> = [];
  const left = [...planes];
  while (left.length) {
    const a = left.shift()!;
    const k = left.findIndex((b) => parallelDirections(a.normal, b.normal) && dot(a.normal, b.normal) < 0);
    if (k < 0) return null;
    const b = left.splice(k, 1)[0];
    pairs.push({ n: a.normal, a, b });
  }
  if (Math.abs(dot(pairs[0].n, pairs[1].n)) > 1e-3) return null;
  return pairs;
}

/** Distance between two antiparallel planes and their mid-plane offset along a.normal. */
function pairGap(a: PlaneSurface, b: PlaneSurface): { gap: number; mid: number } {
  // a: n.p = oa ; b: -n.p = ob  => planes at n.p = oa and n.p = -ob
  return { gap: Math.abs(a.offset + b.offset), mid: (a.offset - b.offset) / 2 };
}

function uniq<T extends Surface>(list: T[], same: (a: T, b: T) => boolean): T[] {
  const out: T[] = [];
  for (const s of list) if (!out.some((o) => same(o, s))) out.push(s);
  return out;
}

export function measureProfile(outer: Surface[], inner: Surface[], d: Vec3): ProfileResult {
  const oCyl = outer.filter((s): s is CylinderSurface => s.kind === 'cylinder');
  const oPln = outer.filter((s): s is PlaneSurface => s.kind === 'plane');
  const iCyl = inner.filter((s): s is CylinderSurface => s.kind === 'cylinder');
  const iPln = inner.filter((s): s is PlaneSurface => s.kind === 'plane');

  if (oPln.length === 0 && oCyl.length === 1 && iPln.length === 0 && iCyl.length === 1) {
    const o = oCyl[0], i = iCyl[0];
    if (!o.convex || i.convex) return { ok: false, message: 'the section is a ring whose skins are not an outer and an inner cylinder' };
    const offset = distanceToLine(i.origin, o.origin, o.axis);
    if (offset > COAXIAL_TOLERANCE_MM) return { ok: false, message: `the bore is eccentric by ${fmt(offset)} mm: the wall is not uniform` };
    const [e2, e3] = basisOf(d);
    return { ok: true, profile: { profile: 'round', outerDiameter: 2 * o.radius, outerWidth: null, outerHeight: null, wall: o.radius - i.radius, cornerRadius: null, center: o.origin, e2, e3 } };
  }

  const po = planePairs(oPln), pi = planePairs(iPln);
  if (!po || !pi) {
    return { ok: false, message: `the section is neither round nor rectangular (outer skin: ${oPln.length} planes and ${oCyl.length} cylinders)` };
  }
  if (oCyl.some((c) => !c.convex) || iCyl.some((c) => c.convex)) return { ok: false, message: 'the section corners are not rounded consistently' };
  const cornerRadii = uniq(oCyl, (a, b) => Math.abs(a.radius - b.radius) < SAME_SURFACE_TOLERANCE_MM).map((c) => c.radius);
  if (cornerRadii.length > 1) return { ok: false, message: `the outer corners have different radii (${cornerRadii.map(fmt).join(', ')} mm)` };
  if (oCyl.length !== 0 && oCyl.length !== 4) return { ok: false, message: `the section has ${oCyl.length} rounded outer corners, not 0 or 4` };

  const sizes = po.map((p) => {
    const q = pi.find((x) => parallelDirections(x.n, p.n));
    const og = pairGap(p.a, p.b);
    if (!q) return null;
    // inner pair normals point into the bore; align its mid offset to p.n
    const ig = pairGap(q.a, q.b);
    const sign = dot(q.n, p.n) > 0 ? 1 : -1;
    return { n: p.n, outer: og.gap, inner: ig.gap, mid: og.mid, innerMid: sign * ig.mid };
  });
  if (sizes.some((s) => s === null)) return { ok: false, message: 'the inner walls are not parallel to the outer walls' };
  const [s0, s1] = sizes as NonNullable<(typeof sizes)[number]>[];
  const walls = [(s0.outer - s0.inner) / 2, (s1.outer - s1.inner) / 2];
  if (Math.abs(walls[0] - walls[1]) > WALL_UNIFORMITY_TOLERANCE_MM) {
    return { ok: false, message: `the walls have different thicknesses (${walls.map(fmt).join(' and ')} mm)` };
  }
  for (const s of [s0, s1]) {
    if (Math.abs(s.mid - s.innerMid) > COAXIAL_TOLERANCE_MM) return { ok: false, message: `the bore is off-centre by ${fmt(Math.abs(s.mid - s.innerMid))} mm: the wall is not uniform` };
  }
  // width is the larger outer size, measured along e2
  const [w, h] = s0.outer >= s1.outer ? [s0, s1] : [s1, s0];
  const e2 = normalize(sub(w.n, scale(d, dot(w.n, d))));
  const e3 = normalize(cross(d, e2));
  const center = add(scale(e2, dot(w.n, e2) > 0 ? w.mid : -w.mid), scale(e3, dot(h.n, e3) > 0 ? h.mid : -h.mid));
  const square = Math.abs(w.outer - h.outer) <= SQUARE_TOLERANCE_MM;
  return {
    ok: true,
    profile: {
      profile: square ? 'square' : 'rectangular', outerDiameter: null, outerWidth: w.outer, outerHeight: h.outer,
      wall: (walls[0] + walls[1]) / 2, cornerRadius: cornerRadii[0] ?? 0, center, e2, e3,
    },
  };
}
