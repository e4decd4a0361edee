// Flat contours as an exact kernel needs them: every edge starting exactly where the previous one
// ends. The unfolder's contours join within micrometres (arc end points come from angles, lines from
// unrolled coordinates), but OCCT joins wire edges only within 1e-7 mm, so a real part's flat failed
// with "does not close into one wire". Lines absorb the difference; where two arcs meet, a bridge
// line of the gap's length (micrometres) keeps the wire closed without moving either arc.
import type { Contour, Segment, Vec2 } from '../geometry/model.ts';
import { segmentEnd, segmentStart } from '../sheet/segments.ts';

/** OCCT's Precision::Confusion: points closer than this are one vertex, mm */
export const KERNEL_CONFUSION_MM = 1e-7;

type Arc = Extract<Segment, { kind: 'arc' }>;
export type KernelEdge = { kind: 'line'; a: Vec2; b: Vec2 } | { kind: 'arc'; arc: Arc; a: Vec2; b: Vec2 };

const dist = (p: Vec2, q: Vec2): number => Math.hypot(p[0] - q[0], p[1] - q[1]);

/** Edges of a closed contour whose consecutive end points are bitwise equal (arcs keep their own). */
export function kernelEdges(contour: Contour): KernelEdge[] {
  const segs = contour.filter((s) => s.kind === 'arc' || dist(s.a, s.b) > KERNEL_CONFUSION_MM);
  const n = segs.length;
  if (n === 0) return [];
  const firstArc = segs.findIndex((s) => s.kind === 'arc');
  if (firstArc < 0) {
    // lines only: each line runs to the next line's start
    return segs.map((s, i) => ({ kind: 'line' as const, a: segmentStart(s), b: segmentStart(segs[(i + 1) % n]) }))
      .filter((e) => dist(e.a, e.b) > KERNEL_CONFUSION_MM);
  }
  // start at an arc, whose end points are fixed, so the closing junction is handled like any other
  const order = [...segs.slice(firstArc), ...segs.slice(0, firstArc)];
  const out: KernelEdge[] = [];
  let cursor = segmentStart(order[0]);
  for (let i = 0; i < n; i++) {
    const s = order[i];
    const next = order[(i + 1) % n];
    if (s.kind === 'arc') {
      const a = segmentStart(s);
      if (dist(cursor, a) > KERNEL_CONFUSION_MM) out.push({ kind: 'line', a: cursor, b: a });
      const b = segmentEnd(s);
      out.push({ kind: 'arc', arc: s, a, b });
      cursor = b;
    } else {
      // a line ends where the next edge starts: exactly an arc's start, or the next line's start
      const b = segmentStart(next);
      if (dist(cursor, b) > KERNEL_CONFUSION_MM) { out.push({ kind: 'line', a: cursor, b }); cursor = b; }
    }
  }
  // the loop returns to the first arc's start: bridge what is left (micrometres at most)
  const start = out[0].a;
  if (dist(cursor, start) > KERNEL_CONFUSION_MM) out.push({ kind: 'line', a: cursor, b: start });
  return out;
}
