// An embossed panel: a pad pressed out of one flat face of the sheet, its rim a closed loop inside
// that face and its top a plane parallel to it. A shop cuts the flat with plain sheet there and
// presses the emboss afterwards, so it is left out of the flat like a louver. Only a shallow pad well
// inside one face qualifies; a rib along the part or a wall standing on it is something else.
import type { PlaneSurface, Solid, Vec3 } from '../geometry/model.ts';
import { basisOf, dot, point } from '../geometry/vec.ts';
import type { OutsideFeature } from './slab.ts';

/** Deepest emboss, in sheet thicknesses (shops press about 1-3 t; deeper is a drawn or added body). */
export const EMBOSS_MAX_DEPTH_T = 3;
/** The emboss's footprint rectangle may cover at most this fraction of its face's rectangle (in the face's plane). */
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
  /** footprint extent in the face's plane (long side first), mm */
  size: [number, number];
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
  const [e1, e2] = basisOf(s.normal);
  const lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
  for (const f of group.faces) {
    for (const v of solid.faces[f].vertices) {
      const p = point(solid.points, v);
      const h = height(p);
      if (h > depth + HEIGHT_TOLERANCE || h < -thickness - HEIGHT_TOLERANCE) return null;
      if (h < HEIGHT_TOLERANCE) continue;
      const x = dot(p, e1), y = dot(p, e2);
      lo[0] = Math.min(lo[0], x); lo[1] = Math.min(lo[1], y); hi[0] = Math.max(hi[0], x); hi[1] = Math.max(hi[1], y);
    }
  }
  const rimFaces = group.faces.filter((f) => solid.faces[f].neighbours.includes(baseId));
  // a closed rim: the face surrounds the emboss (a pad reaching the face's edge would touch its side faces)
  if (rimFaces.length === 0) return null;
  const flo = [Infinity, Infinity], fhi = [-Infinity, -Infinity];
  for (const v of base.vertices) {
    const p = point(solid.points, v);
    const x = dot(p, e1), y = dot(p, e2);
    flo[0] = Math.min(flo[0], x); flo[1] = Math.min(flo[1], y); fhi[0] = Math.max(fhi[0], x); fhi[1] = Math.max(fhi[1], y);
  }
  for (let k = 0; k < 2; k++) if (lo[k] < flo[k] - HEIGHT_TOLERANCE || hi[k] > fhi[k] + HEIGHT_TOLERANCE) return null;
  const dx = hi[0] - lo[0], dy = hi[1] - lo[1];
  if (dx * dy > EMBOSS_MAX_FACE_FRACTION * (fhi[0] - flo[0]) * (fhi[1] - flo[1])) return null;
  return { face: baseId, rimFaces, depth, size: dx >= dy ? [dx, dy] : [dy, dx], volume: volumeAbove(solid, group.faces, s) };
}

/**
 * Volume between the face's plane and the group's faces (divergence theorem with the field h N: the
 * plane itself and walls square to it carry no flux), mm3. Exact on the triangles.
 */
function volumeAbove(solid: Solid, faces: number[], s: PlaneSurface): number {
  const P = solid.points, T = solid.triangles;
  let v = 0;
  for (const f of faces) {
    for (const tri of solid.faces[f].triangles) {
      const a = point(P, T[tri * 3]), b = point(P, T[tri * 3 + 1]), c = point(P, T[tri * 3 + 2]);
      const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], ac = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      // (area x normal) . N, from the outward winding
      const an = ((ab[1] * ac[2] - ab[2] * ac[1]) * s.normal[0] + (ab[2] * ac[0] - ab[0] * ac[2]) * s.normal[1] + (ab[0] * ac[1] - ab[1] * ac[0]) * s.normal[2]) / 2;
      const h = (dot(a, s.normal) + dot(b, s.normal) + dot(c, s.normal)) / 3 - s.offset;
      v += h * an;
    }
  }
  return v;
}
