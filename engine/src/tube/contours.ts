// From the outer skin's boundary to the tube's cut data: exact contour lengths, exact extent along
// the axis, and one feature per contour (end cut, notch, hole, slot, cut-out).
import type { Solid, Vec3, TubeFeature, RecognitionWarning } from '../geometry/model.ts';
import { dot, point } from '../geometry/vec.ts';
import type { Profile } from './profile.ts';
import { perimeterPosition } from './unroll.ts';
import { skinBoundaryLoops, loopLength, windingAboutAxis, classifyInteriorLoop, classifyEndLoop } from './cuts.ts';
import { contourOutline, notchOutline, type Unroll } from './outline.ts';

export interface TubeCuts { start: number; length: number; cutLength: number; features: TubeFeature[]; warnings: RecognitionWarning[] }

/** `min`/`max`: extent of the mesh vertices along d; the result's start/length include the exact
 * curve points between vertices. */
/** `blindFaces`: faces of blind work in the wall; a contour running only along them is no cut. */
export function tubeCuts(solid: Solid, faceOfTri: Int32Array, outerSkin: Set<number>, d: Vec3, p: Profile, min: number, max: number, blindFaces: Set<number> = new Set()): TubeCuts {
  // cut contours first: the points refined onto the exact curves also give the exact extent
  // along the axis (a miter or cope tip rarely falls on a mesh vertex)
  let lo = min, hi = max;
  const contours = skinBoundaryLoops(solid, faceOfTri, outerSkin).filter((edges) => !edges.every((e) => blindFaces.has(e.cutFace))).map((edges) => {
    let cLo = Infinity, cHi = -Infinity;
    // dot(d, q) on scalars, in the same order
    const see = (x: number, y: number, z: number) => { const xq = d[0] * x + d[1] * y + d[2] * z; if (xq < cLo) cLo = xq; if (xq > cHi) cHi = xq; };
    for (const e of edges) see(solid.points[e.a * 3], solid.points[e.a * 3 + 1], solid.points[e.a * 3 + 2]);
    const { length: len, exact } = loopLength(solid, edges, see);
    lo = Math.min(lo, cLo); hi = Math.max(hi, cHi);
    return { edges, len, exact, cLo, cHi };
  });
  const length = hi - lo;

  const warnings: RecognitionWarning[] = [];
  const unroll: Unroll = { d, x0: lo, p };
  const features: TubeFeature[] = [];
  let cutLength = 0, approximate = false, endLoops = 0;
  for (const { edges, len, exact, cLo, cHi } of contours) {
    cutLength += len;
    approximate ||= !exact;
    const x = (cLo + cHi) / 2 - lo;
    const winding = Math.abs(windingAboutAxis(solid, edges, p.center, p.e2, p.e3));
    const faceIds = [...new Set(edges.map((e) => e.cutFace).filter((f) => f >= 0))].sort((a, b) => a - b);
    if (winding > 0.5) {
      endLoops++;
      const end = x < length / 2 ? 'start' : 'end';
      const { angleDegrees, notched } = classifyEndLoop(solid, edges, d);
      features.push({ id: 0, kind: 'end_cut', end, angleDegrees, x, cutLength: len, faceIds, outline: contourOutline(solid, edges, unroll) });
      if (notched) features.push({ id: 0, kind: 'notch', end, x, outline: notchOutline(solid, edges, unroll) });
    } else {
      const c = classifyInteriorLoop(solid, edges);
      features.push({
        id: 0, kind: c.kind, x, aroundDegrees: aroundAxis(solid, edges.map((e) => e.a), p.center, p.e2, p.e3),
        unrolled: [x, unrolledPosition(solid, edges.map((e) => e.a), p)], cutLength: len, faceIds, outline: contourOutline(solid, edges, unroll),
        ...(c.diameter !== undefined ? { diameter: c.diameter } : {}), ...(c.width !== undefined ? { width: c.width, length: c.length } : {}),
      });
    }
  }
  if (approximate) warnings.push({ code: 'approximate_cut_length', message: 'some cut edges lie on free-form surfaces; their length is measured on the tessellation' });
  if (endLoops !== 2) warnings.push({ code: 'unusual_end_cuts', message: `found ${endLoops} contours going round the tube instead of 2` });
  const order = { end_cut: 0, notch: 1, hole: 2, slot: 3, cutout: 4 } as const;
  features.sort((a, b) => (a.x ?? 0) - (b.x ?? 0) || order[a.kind] - order[b.kind]);
  features.forEach((f, i) => { f.id = i + 1; });

  return { start: lo, length, cutLength, features, warnings };
}

/** Position around the unrolled outer wall of the centre of a contour's (y, z) bounding box (on a
 * flat wall that centre lies on the wall; on a round tube its direction is the contour's). */
function unrolledPosition(solid: Solid, vertices: number[], p: Profile): number {
  let y0 = Infinity, y1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  const cy = dot(p.center, p.e2), cz = dot(p.center, p.e3);
  for (const v of vertices) {
    const q = point(solid.points, v);
    const y = dot(q, p.e2) - cy, z = dot(q, p.e3) - cz;
    y0 = Math.min(y0, y); y1 = Math.max(y1, y); z0 = Math.min(z0, z); z1 = Math.max(z1, z);
  }
  return perimeterPosition(p, (y0 + y1) / 2, (z0 + z1) / 2);
}

/** Angular position of a contour about the axis: direction of the mean of its vertices from the
 * centre line, degrees from +Y (width direction) towards +Z, in (-180, 180]. */
function aroundAxis(solid: Solid, vertices: number[], center: Vec3, e2: Vec3, e3: Vec3): number {
  let y = 0, z = 0;
  for (const v of vertices) {
    const q = point(solid.points, v);
    y += dot(q, e2) - dot(center, e2);
    z += dot(q, e3) - dot(center, e3);
  }
  const a = (Math.atan2(z, y) * 180) / Math.PI;
  return a === -180 ? 180 : a;
}

