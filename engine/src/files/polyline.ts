// Flat contours (lines + true arcs) as polylines, for meshing and drawing. The exact arcs are kept
// for STEP and DXF; only previews and meshes go through here.
import type { Contour, Vec2 } from '../geometry/model.ts';
import { arcPoint, arcSweep } from '../sheet/segments.ts';

/** Largest distance between an arc and its chords in meshes and images, mm */
export const ARC_CHORD_TOLERANCE_MM = 0.01;
/** Upper bound of chords per full circle so a huge radius cannot explode the vertex count */
const MAX_CHORDS_PER_CIRCLE = 720;
const MIN_CHORDS_PER_CIRCLE = 12;

function chordCount(radius: number, sweepDegrees: number, tolerance: number): number {
  const ratio = Math.min(1, tolerance / Math.max(radius, 1e-9));
  const step = 2 * Math.acos(1 - ratio); // radians per chord at this sagitta
  const perCircle = Math.min(MAX_CHORDS_PER_CIRCLE, Math.max(MIN_CHORDS_PER_CIRCLE, Math.ceil((2 * Math.PI) / step)));
  return Math.max(1, Math.ceil((perCircle * Math.abs(sweepDegrees)) / 360));
}

/** Points of a closed contour, first point not repeated at the end. */
export function contourToPolyline(contour: Contour, tolerance = ARC_CHORD_TOLERANCE_MM): Vec2[] {
  const out: Vec2[] = [];
  for (const s of contour) {
    if (s.kind === 'line') { out.push([s.a[0], s.a[1]]); continue; }
    // one sweep rule for every consumer of flat arcs: a full turn a hair off 360 degrees stays a full turn
    const sweep = (arcSweep(s) * 180) / Math.PI;
    const n = chordCount(s.radius, sweep, tolerance);
    for (let i = 0; i < n; i++) out.push(arcPoint(s.center, s.radius, s.startDegrees + (sweep * i) / n));
  }
  // drop consecutive duplicates (segment joints) so meshing sees no zero-length edges
  const clean: Vec2[] = [];
  for (const p of out) {
    const q = clean[clean.length - 1];
    if (!q || Math.hypot(p[0] - q[0], p[1] - q[1]) > 1e-9) clean.push(p);
  }
  while (clean.length > 1 && Math.hypot(clean[0][0] - clean[clean.length - 1][0], clean[0][1] - clean[clean.length - 1][1]) <= 1e-9) clean.pop();
  return clean;
}

/** Shoelace area, positive when counter-clockwise, mm2 */
export function polygonArea(points: Vec2[]): number {
  let a = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) a += points[j][0] * points[i][1] - points[i][0] * points[j][1];
  return a / 2;
}
