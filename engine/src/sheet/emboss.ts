// An embossed panel: a pad pressed out of one flat face of the sheet, its rim a closed loop inside
// that face, rounded as the die leaves it, and its top a plane parallel to the face. A shop cuts the
// flat with plain sheet there and presses the emboss afterwards, so it is left out of the flat like a
// louver. Only a shallow pad well inside one face qualifies; a rib along the part, a wall standing on
// it or a sharp-edged (machined) step is something else.
import type { Contour, PlaneSurface, Solid, Vec2, Vec3 } from '../geometry/model.ts';
import { basisOf, dot, point } from '../geometry/vec.ts';
import { convexHull, enclosingRectangle } from './align.ts';
import type { OutsideFeature } from './slab.ts';

/** Deepest emboss, in sheet thicknesses (shops press about 1-3 t; deeper is a drawn or added body). */
export const EMBOSS_MAX_DEPTH_T = 3;
/** The emboss's footprint may cover at most this fraction of its face (face area + footprint). */
export const EMBOSS_MAX_FACE_FRACTION = 0.5;
/** Plateau normals within this of the face's normal are parallel, cosine. */
const PARALLEL_COS = 1 - 1e-8;
/** Slack on heights and the rim plane, mm. */
const HEIGHT_TOLERANCE = 1e-2;

export interface Emboss {
  /** the flat face the emboss is pressed out of */
  face: number;
  /** emboss faces sharing an edge with that face (its rim) */
  rimFaces: number[];
  /** height of the plateau over the face, mm (positive: out of the material) */
  depth: number;
  /** smallest rectangle around the footprint in the face's plane (long side first), mm */
  size: [number, number];
  /** area of the footprint on the face (cut-outs through the emboss excluded), mm2 */
  footprint: number;
  /** material standing out of the face's plane, mm3 */
  volume: number;
}

/**
 * The emboss a group of outside faces forms, or null. `sheetPlanes` maps each sheet plane to its
 * opposite faces at t: the group may touch only one such face (its rim) and that face's opposite
 * (walls of a cut-out made through the emboss).
 */
export function embossOf(solid: Solid, thickness: number, group: OutsideFeature, sheetPlanes: Map<number, Set<number>>): Emboss | null {
  const own = new Set(group.faces);
  const touching = new Set<number>();
  for (const f of group.faces) for (const g of solid.faces[f].neighbours) if (!own.has(g)) touching.add(g);
  const bases = [...touching].filter((g) => solid.faces[g].surface.kind === 'plane' && sheetPlanes.has(g));
  for (const b of bases) {
    const opposite = sheetPlanes.get(b)!;
    if (![...touching].every((g) => g === b || opposite.has(g))) continue;
    const found = measure(solid, thickness, group, b);
    if (found) return found;
  }
  return null;
}

function measure(solid: Solid, thickness: number, group: OutsideFeature, baseId: number): Emboss | null {
  const base = solid.faces[baseId];
  const s = base.surface as PlaneSurface;
  const height = (p: Vec3) => dot(p, s.normal) - s.offset;
  // the top of the panel: a plane of the group parallel to the face, standing out of the material
  let depth = -Infinity;
  for (const f of group.faces) {
    const q = solid.faces[f].surface;
    if (q.kind !== 'plane' || dot(q.normal, s.normal) < PARALLEL_COS) continue;
    depth = Math.max(depth, q.offset - s.offset);
  }
  if (!(depth > HEIGHT_TOLERANCE) || depth > EMBOSS_MAX_DEPTH_T * thickness + HEIGHT_TOLERANCE) return null;
  // nothing of it above the plateau or through the sheet's other side
  for (const f of group.faces) {
    for (const v of solid.faces[f].vertices) {
      const h = height(point(solid.points, v));
      if (h > depth + HEIGHT_TOLERANCE || h < -thickness - HEIGHT_TOLERANCE) return null;
    }
  }
  const rimFaces = group.faces.filter((f) => solid.faces[f].neighbours.includes(baseId));
  // a closed rim, rounded: a punch and die leave a radius where the panel leaves the face (a plane
  // meeting it there is a machined step or a part standing on the face)
  if (rimFaces.length === 0 || rimFaces.some((f) => solid.faces[f].surface.kind === 'plane')) return null;
  // the footprint is bounded by the rim where it meets the face, and lies within the face
  const [e1, e2] = basisOf(s.normal);
  const onFace = (ids: Iterable<number>): Vec2[] => {
    const out: Vec2[] = [];
    for (const v of ids) {
      const p = point(solid.points, v);
      if (Math.abs(height(p)) <= HEIGHT_TOLERANCE) out.push([dot(p, e1), dot(p, e2)]);
    }
    return out;
  };
  const seen = rimFaces.flatMap((f) => onFace(solid.faces[f].vertices));
  if (seen.length < 3) return null;
  const face = onFace(base.vertices);
  const bounds = (pts: Vec2[]) => pts.reduce((b, p) => ({ lo: [Math.min(b.lo[0], p[0]), Math.min(b.lo[1], p[1])], hi: [Math.max(b.hi[0], p[0]), Math.max(b.hi[1], p[1])] }),
    { lo: [Infinity, Infinity], hi: [-Infinity, -Infinity] });
  const rb = bounds(seen), fb = bounds(face);
  for (let k = 0; k < 2; k++) if (rb.lo[k] < fb.lo[k] - HEIGHT_TOLERANCE || rb.hi[k] > fb.hi[k] + HEIGHT_TOLERANCE) return null;
  const { volume, footprint } = overPlane(solid, group.faces, s);
  if (footprint > EMBOSS_MAX_FACE_FRACTION * (base.area + footprint)) return null;
  const hull = convexHull(seen);
  const outline: Contour = hull.map((a, i) => ({ kind: 'line', a, b: hull[(i + 1) % hull.length] }));
  const rect = enclosingRectangle(outline);
  return { face: baseId, rimFaces, depth, size: [rect.length, rect.width], footprint, volume };
}

/**
 * Volume between the face's plane and the group's faces (divergence theorem with the field h N: the
 * plane itself and walls square to it carry no flux), mm3, exact on the triangles; and the footprint,
 * the group's outward-facing area projected on the plane (each point of a pad seen once from above), mm2.
 */
function overPlane(solid: Solid, faces: number[], s: PlaneSurface): { volume: number; footprint: number } {
  const P = solid.points, T = solid.triangles;
  let volume = 0, footprint = 0;
  for (const f of faces) {
    for (const tri of solid.faces[f].triangles) {
      const a = point(P, T[tri * 3]), b = point(P, T[tri * 3 + 1]), c = point(P, T[tri * 3 + 2]);
      const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], ac = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      // (area x normal) . N, from the outward winding
      const an = ((ab[1] * ac[2] - ab[2] * ac[1]) * s.normal[0] + (ab[2] * ac[0] - ab[0] * ac[2]) * s.normal[1] + (ab[0] * ac[1] - ab[1] * ac[0]) * s.normal[2]) / 2;
      const h = (dot(a, s.normal) + dot(b, s.normal) + dot(c, s.normal)) / 3 - s.offset;
      volume += h * an;
      if (an > 0) footprint += an;
    }
  }
  return { volume, footprint };
}
