// One bend may be interrupted (a window or relief across it, a face split by the exporter): its pieces
// unroll to collinear strips with the same angle, radius and direction, with flat material around the
// gap between them, and are one bend whose length is the whole extent of the line. Pieces with empty
// space between them in the flat (two tabs bent along one line, far apart) stay separate bends, each
// with its own length: one press stroke may form both, but the bend-length and flange rules judge each
// bent segment, and the bend-lines DXF must not draw a line across the gap.
import type { Contour, Vec2 } from '../geometry/model.ts';
import { sampleContour } from './segments.ts';
import type { UnfoldBend } from './unfold.ts';
import { hypot2 } from '../geometry/vec.ts';

/** Bend lines this far off each other's line are not collinear, mm. */
const COLLINEAR_TOLERANCE = 1e-3;
/** Angles within this are one bend angle, radians (0.01 degree). */
const SAME_ANGLE = (0.01 * Math.PI) / 180;
/** Radii within this are one radius, mm. */
const SAME_RADIUS = 1e-3;
/** The gap between two pieces is probed this far beyond each tangent line of the bend zone, mm: an
 * edge of the flat running between two tabs a hair past the bend line is not material across the gap. */
const SIDE_PROBE_MM = 0.5;

function offLine(p: Vec2, a: Vec2, b: Vec2): number {
  const dx = b[0] - a[0], dy = b[1] - a[1], l = hypot2(dx, dy);
  return l === 0 ? hypot2(p[0] - a[0], p[1] - a[1]) : Math.abs((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / l;
}

/** Even-odd test against the sampled outline. */
function inside(p: Vec2, ring: Vec2[]): boolean {
  let odd = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

function sameLine(m: UnfoldBend, b: UnfoldBend): boolean {
  return m.convex === b.convex && m.sharp === b.sharp
    && Math.abs(m.angle - b.angle) < SAME_ANGLE && Math.abs(m.innerRadius - b.innerRadius) < SAME_RADIUS
    && offLine(b.line[0], m.line[0], m.line[1]) < COLLINEAR_TOLERANCE && offLine(b.line[1], m.line[0], m.line[1]) < COLLINEAR_TOLERANCE;
}

/** A bend of the flat; segments bent along one line (one press stroke) share a line number. */
export type MergedBend = UnfoldBend & { /** the line's number when it has several segments, else null */ lineGroup: number | null };

/**
 * The bends of the flat: collinear pieces joined where the unfolded outline `outer` has material
 * across the gap between them on both sides of the bend zone (a window or a split face), kept apart
 * where either side of the gap is outside it (two tabs). Without an outline every collinear piece is joined.
 */
export function mergeCollinearBends(bends: UnfoldBend[], outer?: Contour): MergedBend[] {
  // sampled when a gap between two pieces is first probed: most parts have none, and the outline's
  // arcs at this sagitta are thousands of points
  let sampled: Vec2[] | null = null;
  const ring = (): Vec2[] => (sampled ??= sampleContour(outer!));
  const lines: UnfoldBend[][] = [];
  for (const b of bends) {
    const line = lines.find((l) => sameLine(l[0], b));
    if (line) line.push(b); else lines.push([b]);
  }
  const out: MergedBend[] = [];
  lines.forEach((pieces, lineNo) => {
    const before = out.length;
    const [a, c] = pieces[0].line;
    const l = hypot2(c[0] - a[0], c[1] - a[1]) || 1;
    const u: Vec2 = [(c[0] - a[0]) / l, (c[1] - a[1]) / l];
    const at = (t: number): Vec2 => [a[0] + t * u[0], a[1] + t * u[1]];
    // material across the gap on both sides of the bend zone (a window or split face), not only on the line
    const reach = pieces[0].allowance / 2 + SIDE_PROBE_MM;
    const across = (t: number): boolean => {
      const m = at(t);
      return !!outer && inside([m[0] - u[1] * reach, m[1] + u[0] * reach], ring()) && inside([m[0] + u[1] * reach, m[1] - u[0] * reach], ring());
    };
    const span = (b: UnfoldBend) => {
      const t0 = (b.line[0][0] - a[0]) * u[0] + (b.line[0][1] - a[1]) * u[1], t1 = (b.line[1][0] - a[0]) * u[0] + (b.line[1][1] - a[1]) * u[1];
      return { b, lo: Math.min(t0, t1), hi: Math.max(t0, t1) };
    };
    const sorted = pieces.map(span).sort((p, q) => p.lo - q.lo);
    let cur: { lo: number; hi: number; faces: number[]; first: UnfoldBend; pieces: number } | null = null;
    const flush = () => {
      if (!cur) return;
      out.push(cur.pieces > 1
        ? { ...cur.first, faces: cur.faces, line: [at(cur.lo), at(cur.hi)], length: cur.hi - cur.lo, lineGroup: null }
        : { ...cur.first, faces: cur.faces, line: [cur.first.line[0], cur.first.line[1]], lineGroup: null });
    };
    for (const s of sorted) {
      const bridged = cur !== null && (s.lo <= cur.hi || !outer || across((cur.hi + s.lo) / 2));
      if (cur && bridged) {
        cur.hi = Math.max(cur.hi, s.hi);
        cur.faces.push(...s.b.faces);
        cur.pieces++;
        continue;
      }
      flush();
      cur = { lo: s.lo, hi: s.hi, faces: s.b.faces.slice(), first: s.b, pieces: 1 };
    }
    flush();
    if (out.length - before > 1) for (let i = before; i < out.length; i++) out[i].lineGroup = lineNo;
  });
  // keep the order of the input (first piece of each bend), as before
  const rank = new Map(bends.map((b, i) => [b.index, i]));
  return out.sort((p, q) => rank.get(p.index)! - rank.get(q.index)!);
}
