// One bend line may be interrupted (a window or relief across it, tabs bent in one hit): the pieces
// unroll to collinear strips with the same angle, radius and direction and are one bend, whose length
// is the whole extent of the line.
import type { Vec2 } from '../geometry/model.ts';
import type { UnfoldBend } from './unfold.ts';

/** Bend lines this far off each other's line are not collinear, mm. */
const COLLINEAR_TOLERANCE = 1e-3;
/** Angles within this are one bend angle, radians (0.01 degree). */
const SAME_ANGLE = (0.01 * Math.PI) / 180;
/** Radii within this are one radius, mm. */
const SAME_RADIUS = 1e-3;

function offLine(p: Vec2, a: Vec2, b: Vec2): number {
  const dx = b[0] - a[0], dy = b[1] - a[1], l = Math.hypot(dx, dy);
  return l === 0 ? Math.hypot(p[0] - a[0], p[1] - a[1]) : Math.abs((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / l;
}

export function mergeCollinearBends(bends: UnfoldBend[]): UnfoldBend[] {
  const out: UnfoldBend[] = [];
  for (const b of bends) {
    const host = out.find((m) => m.convex === b.convex && m.sharp === b.sharp
      && Math.abs(m.angle - b.angle) < SAME_ANGLE && Math.abs(m.innerRadius - b.innerRadius) < SAME_RADIUS
      && offLine(b.line[0], m.line[0], m.line[1]) < COLLINEAR_TOLERANCE && offLine(b.line[1], m.line[0], m.line[1]) < COLLINEAR_TOLERANCE);
    if (!host) { out.push({ ...b, faces: b.faces.slice(), line: [b.line[0], b.line[1]] }); continue; }
    const [a, c] = host.line;
    const l = Math.hypot(c[0] - a[0], c[1] - a[1]);
    const ux = (c[0] - a[0]) / l, uy = (c[1] - a[1]) / l;
    const ts = [a, c, b.line[0], b.line[1]].map((p) => (p[0] - a[0]) * ux + (p[1] - a[1]) * uy);
    const lo = Math.min(...ts), hi = Math.max(...ts);
    host.line = [[a[0] + lo * ux, a[1] + lo * uy], [a[0] + hi * ux, a[1] + hi * uy]];
    host.length = hi - lo;
    host.faces.push(...b.faces);
  }
  return out;
}
