// Normalized frame of a part that no recogniser framed. CAD parts are mostly box-like along their
// planar faces, so candidate frames come from pairs of perpendicular plane normals (largest faces
// first) plus the principal axes; the frame with the smallest box wins. Axes are then ordered by
// extent (longest on X, shortest on Z), right-handed, with the box's minimum corner at the origin.
import type { Dimensions } from '../contract.ts';
import type { Rigid, Solid, Vec3 } from '../geometry/model.ts';
import { cross, dot, normalize, scale, sub } from '../geometry/vec.ts';
import { massProperties } from './mass.ts';
import { extentsIn } from './rigid.ts';

/** Plane normals closer than this (|cos| above 1 - value) are one direction. */
const SAME_DIRECTION_COS = 1e-9;
/** Two directions are perpendicular when |cos| is below this. */
const PERPENDICULAR_COS = 1e-6;
/** Plane directions (by total face area) tried as frame axes. */
const MAX_PLANE_DIRECTIONS = 6;

function spansAlong(points: Float64Array, axes: Vec3[]): number[] {
  return axes.map((a) => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < points.length; i += 3) {
      const d = a[0] * points[i] + a[1] * points[i + 1] + a[2] * points[i + 2];
      if (d < lo) lo = d; if (d > hi) hi = d;
    }
    return hi - lo;
  });
}

function planeDirections(solid: Solid): Vec3[] {
  const dirs: Array<{ n: Vec3; area: number }> = [];
  for (const f of solid.faces) {
    if (f.surface.kind !== 'plane') continue;
    const n = f.surface.normal;
    const hit = dirs.find((d) => Math.abs(dot(d.n, n)) > 1 - SAME_DIRECTION_COS);
    if (hit) hit.area += f.area; else dirs.push({ n, area: f.area });
  }
  return dirs.sort((a, b) => b.area - a.area).slice(0, MAX_PLANE_DIRECTIONS).map((d) => d.n);
}

export function principalFrame(solid: Solid): Rigid {
  const { axes } = massProperties(solid);
  const candidates: Vec3[][] = [[axes[0], axes[1], axes[2]]];
  const planes = planeDirections(solid);
  for (const n of planes) {
    let paired = false;
    for (const m of planes) {
      if (Math.abs(dot(n, m)) < PERPENDICULAR_COS) { candidates.push([n, m, cross(n, m)]); paired = true; }
    }
    if (!paired) {
      // Only one plane direction: the in-plane axes follow the principal axes projected on it.
      const p = axes.map((a) => sub(a, scale(n, dot(a, n)))).sort((a, b) => dot(b, b) - dot(a, a))[0];
      const x = normalize(p);
      candidates.push([n, x, cross(n, x)]);
    }
  }
  let best: { axes: Vec3[]; spans: number[]; volume: number } | null = null;
  for (const c of candidates) {
    const spans = spansAlong(solid.points, c);
    const volume = spans[0] * spans[1] * spans[2];
    if (!best || volume < best.volume * (1 - 1e-9)) best = { axes: c, spans, volume };
  }
  const order = [0, 1, 2].sort((i, j) => best!.spans[j] - best!.spans[i]);
  const x = best!.axes[order[0]], y = best!.axes[order[1]];
  const rotation: Rigid['rotation'] = [x, y, cross(x, y)];
  return placeAtOrigin(solid.points, { rotation, translation: [0, 0, 0] });
}

/** The same rotation, translated so the part's box starts at the origin. */
function placeAtOrigin(points: Float64Array, frame: Rigid): Rigid {
  const { min } = extentsIn(points, { rotation: frame.rotation, translation: [0, 0, 0] });
  return { rotation: frame.rotation, translation: [-min[0], -min[1], -min[2]] as Vec3 };
}

/** Box of the part in a frame, reported length >= width (X, Y) and height along Z. */
export function dimensionsIn(points: Float64Array, frame: Rigid): Dimensions {
  const { min, max } = extentsIn(points, frame);
  const dx = max[0] - min[0], dy = max[1] - min[1], dz = max[2] - min[2];
  return { length_mm: Math.max(dx, dy), width_mm: Math.min(dx, dy), height_mm: dz };
}
