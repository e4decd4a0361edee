// 2D flat-pattern building blocks: enclosing rectangle, contour simplification, overlap, bend merging.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Contour, Vec2 } from '../src/geometry/model.ts';
import { alignFlat, convexHull, enclosingRectangle } from '../src/sheet/align.ts';
import { simplifyContour } from '../src/sheet/outline.ts';
import { flatOverlaps } from '../src/sheet/overlap.ts';
import { arcSweep, contourArea, contourBounds, contourLength, transformContour } from '../src/sheet/segments.ts';
import { classifyHole } from '../src/sheet/holes.ts';
import { mergeCollinearBends } from '../src/sheet/merge-bends.ts';
import type { UnfoldBend } from '../src/sheet/unfold.ts';

const polygon = (pts: Vec2[]): Contour => pts.map((a, i) => ({ kind: 'line', a, b: pts[(i + 1) % pts.length] }));
const turn = (deg: number, tx = 0, ty = 0) => ({ cos: Math.cos((deg * Math.PI) / 180), sin: Math.sin((deg * Math.PI) / 180), tx, ty });

test('enclosing rectangle of a rotated 120 x 30 rectangle is 120 x 30, long side on X, at the origin', () => {
  const c = transformContour(turn(37, 12, -8), polygon([[0, 0], [120, 0], [120, 30], [0, 30]]));
  const r = enclosingRectangle(c);
  assert.ok(Math.abs(r.length - 120) < 1e-9 && Math.abs(r.width - 30) < 1e-9, `${r.length} x ${r.width}`);
  const b = contourBounds(transformContour(r.motion, c));
  assert.ok(Math.abs(b.min[0]) < 1e-9 && Math.abs(b.min[1]) < 1e-9 && Math.abs(b.max[0] - 120) < 1e-9 && Math.abs(b.max[1] - 30) < 1e-9);
});

test('enclosing rectangle is the smallest area one, not the axis-aligned bounding box', () => {
  // a thin parallelogram strip at 30 degrees: its bounding box is far larger than its rectangle
  const d: Vec2 = [Math.cos(Math.PI / 6), Math.sin(Math.PI / 6)], n: Vec2 = [-d[1], d[0]];
  const p = (s: number, w: number): Vec2 => [s * d[0] + w * n[0], s * d[1] + w * n[1]];
  const r = enclosingRectangle(polygon([p(0, 0), p(100, 0), p(100, 10), p(0, 10)]));
  assert.ok(Math.abs(r.length - 100) < 1e-9 && Math.abs(r.width - 10) < 1e-9);
});

test('enclosing rectangle counts arcs exactly (a disc of radius 5 is 10 x 10)', () => {
  const disc: Contour = [{ kind: 'arc', center: [3, 4], radius: 5, startDegrees: 10, endDegrees: 370, ccw: true }];
  const r = enclosingRectangle(disc);
  assert.ok(Math.abs(r.length - 10) < 1e-5 && Math.abs(r.width - 10) < 1e-5, `${r.length} x ${r.width}`);
});

test('convex hull drops interior and collinear points', () => {
  const h = convexHull([[0, 0], [2, 0], [1, 0], [2, 2], [0, 2], [1, 1]]);
  assert.equal(h.length, 4);
});

test('simplifyContour merges collinear lines (even a back-and-forth) and co-circular arcs', () => {
  const c: Contour = [
    { kind: 'line', a: [0, 0], b: [5, 0] }, { kind: 'line', a: [5, 0], b: [10, 0] },
    { kind: 'line', a: [10, 0], b: [10, 4] }, { kind: 'line', a: [10, 4], b: [10, 3] }, { kind: 'line', a: [10, 3], b: [10, 10] },
    { kind: 'arc', center: [5, 10], radius: 5, startDegrees: 0, endDegrees: 90, ccw: true },
    { kind: 'arc', center: [5, 10], radius: 5, startDegrees: 90, endDegrees: 180, ccw: true },
    { kind: 'line', a: [0, 10], b: [0, 0] },
  ];
  const s = simplifyContour(c);
  assert.equal(s.length, 4, JSON.stringify(s));
  const arc = s.find((x) => x.kind === 'arc')!;
  assert.ok(arc.kind === 'arc' && Math.abs(arcSweep(arc) - Math.PI) < 1e-12);
  assert.ok(Math.abs(contourArea(s) - (100 + Math.PI * 25 / 2)) < 1e-9);
});

test('flatOverlaps: a simple outline with a hole is fine, a self-crossing outline or a hole across the edge overlaps', () => {
  const square = polygon([[0, 0], [10, 0], [10, 10], [0, 10]]);
  const hole: Contour = [{ kind: 'arc', center: [5, 5], radius: 2, startDegrees: 0, endDegrees: -360, ccw: false }];
  assert.equal(flatOverlaps([square, hole]), null);
  const bowtie = polygon([[0, 0], [10, 10], [10, 0], [0, 10]]);
  assert.equal(flatOverlaps([bowtie])?.kind, 'overlap');
  const crossing: Contour = [{ kind: 'arc', center: [9, 5], radius: 2, startDegrees: 0, endDegrees: -360, ccw: false }];
  assert.equal(flatOverlaps([square, crossing])?.kind, 'overlap');
  // two flanges unfolded onto each other: an outline that runs back over its own edge
  const folded = polygon([[0, 0], [10, 0], [10, 5], [4, 5], [4, -3], [2, -3], [2, 8], [0, 8]]);
  assert.equal(flatOverlaps([folded])?.kind, 'overlap');
});

test('flatOverlaps: flanges that only touch (closed-corner seam, or a crossing within the 0.01 mm tolerance) touch, not overlap', () => {
  // a zero-width slit: the outline runs out and back along the same line (a seam cut in the flat)
  const slit = polygon([[0, 0], [10, 0], [10, 4], [6, 4], [6, 3], [6, 2], [6, 3], [6, 4], [0, 4]]);
  assert.equal(flatOverlaps([slit])?.kind, 'touch');
  // the support-frame lesson: a 0.002 mm sliver bend makes the foot's edge cross the flange's bend strip
  // by 0.002 mm at the closed corner; 0.05 mm would be material needed twice
  const corner = (d: number) => polygon([[-16.5, -10], [5, -10], [5, 5], [1.5, 5], [1.5, 0.536], [0.002, 0.536], [0.002, -d], [0.964, -d], [0.964, 0], [-16.5, 0]]);
  assert.equal(flatOverlaps([corner(0.002)])?.kind, 'touch');
  assert.equal(flatOverlaps([corner(0.05)])?.kind, 'overlap');
  const o = flatOverlaps([corner(0.05)])!;
  assert.ok(Math.abs(o.at[0] - 0.002) < 1e-9 && Math.abs(o.at[1]) < 1e-9, JSON.stringify(o));
  // a fine-sampled arc crossing deep into another flange is an overlap however short its pieces are
  const lobe: Contour = [
    { kind: 'line', a: [0, 0], b: [10, 0] }, { kind: 'line', a: [10, 0], b: [10, 5] }, { kind: 'line', a: [10, 5], b: [4, 5] },
    { kind: 'line', a: [4, 5], b: [4, -1] }, { kind: 'arc', center: [3, -1], radius: 1, startDegrees: 0, endDegrees: -180, ccw: false },
    { kind: 'line', a: [2, -1], b: [2, 8] }, { kind: 'line', a: [2, 8], b: [0, 8] }, { kind: 'line', a: [0, 8], b: [0, 0] },
  ];
  assert.equal(flatOverlaps([lobe])?.kind, 'overlap');
});

test('classifyHole: circle, slot (width as diameter, centre between the arc centres), other', () => {
  const circle: Contour = [{ kind: 'arc', center: [1, 2], radius: 3, startDegrees: 45, endDegrees: -315, ccw: false }];
  assert.deepEqual(classifyHole(circle), { shape: 'round', diameter: 6, center: [1, 2] });

  const slot: Contour = [
    { kind: 'line', a: [0, -2], b: [10, -2] },
    { kind: 'arc', center: [10, 0], radius: 2, startDegrees: -90, endDegrees: 90, ccw: true },
    { kind: 'line', a: [10, 2], b: [0, 2] },
    { kind: 'arc', center: [0, 0], radius: 2, startDegrees: 90, endDegrees: 270, ccw: true },
  ];
  const s = classifyHole(slot);
  assert.equal(s.shape, 'slot');
  assert.ok(Math.abs(s.diameter - 4) < 1e-12 && Math.abs(s.center[0] - 5) < 1e-12 && Math.abs(s.center[1]) < 1e-12);
  assert.ok(Math.abs(s.slotLength! - 14) < 1e-12);
  const rect = classifyHole(polygon([[0, 0], [0, 6], [20, 6], [20, 0]]));
  assert.equal(rect.shape, 'other');
  assert.ok(Math.abs(rect.diameter - 6) < 1e-9 && Math.abs(rect.center[0] - 10) < 1e-6 && Math.abs(rect.center[1] - 3) < 1e-6);
});

test('alignFlat puts a rotated flat on its rectangle and keeps bend lines with it', () => {
  const m = turn(-20, 40, 7);
  const flat = {
    kFactor: 0.44, outer: transformContour(m, polygon([[0, 0], [80, 0], [80, 20], [0, 20]])), inner: [],
    bendLines: [{ bendId: 1, a: [m.tx + 30 * m.cos, m.ty + 30 * m.sin] as Vec2, b: [m.tx + 30 * m.cos - 20 * m.sin, m.ty + 30 * m.sin + 20 * m.cos] as Vec2, direction: 'up' as const, angleDegrees: 90 }],
    length: 80, width: 20, area: 1600, cutLength: 200, pierceCount: 0,
  };
  const a = alignFlat(flat);
  const b = contourBounds(a.outer);
  assert.ok(Math.abs(b.max[0] - 80) < 1e-9 && Math.abs(b.max[1] - 20) < 1e-9 && Math.abs(b.min[0]) < 1e-9);
  const l = a.bendLines[0];
  assert.ok(Math.abs(l.a[0] - l.b[0]) < 1e-9, 'bend line is vertical after alignment');
  assert.ok(Math.abs(contourLength(a.outer) - 200) < 1e-9);
});

test('mergeCollinearBends joins pieces of one interrupted bend line and keeps separate bends apart', () => {
  const bend = (index: number, line: [Vec2, Vec2], angle = Math.PI / 2, convex = false): UnfoldBend => ({
    index, faces: [index], anchor: null, sharp: false, convex, angle, innerRadius: 2, kFactor: 0.44, length: Math.hypot(line[1][0] - line[0][0], line[1][1] - line[0][1]),
    line, allowance: 4, cyl: null, motion: { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] }, smin: 0, smax: 0,
  });
  const merged = mergeCollinearBends([bend(0, [[10, 0], [10, 20]]), bend(1, [[10, 40], [10, 60]]), bend(2, [[30, 0], [30, 60]]), bend(3, [[10, 70], [10, 80]], Math.PI / 4)]);
  assert.equal(merged.length, 3);
  assert.ok(Math.abs(merged[0].length - 60) < 1e-12);
  assert.deepEqual(merged[0].faces, [0, 1]);
});

test('mergeCollinearBends: two tabs on one edge stay two bends even where the edge between them runs past the bend line', () => {
  // #32.4: two 29 mm wings 85 mm apart; the base's edge between them lies 0.29 mm beyond the bend line
  // (bend zone 50..54, line at 52): before, the gap's midpoint fell inside the outline and the two
  // wings were one 143 mm bend with a 0.29 mm flange
  const bend = (index: number, line: [Vec2, Vec2]): UnfoldBend => ({
    index, faces: [index], anchor: null, sharp: false, convex: false, angle: Math.PI / 2, innerRadius: 2, kFactor: 0.44, length: Math.hypot(line[1][0] - line[0][0], line[1][1] - line[0][1]),
    line, allowance: 4, cyl: null, motion: { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] }, smin: 0, smax: 0,
  });
  const wings = polygon([[0, 0], [200, 0], [200, 52.29], [163, 52.29], [163, 80], [134, 80], [134, 52.29], [49, 52.29], [49, 80], [20, 80], [20, 52.29], [0, 52.29]]);
  const merged = mergeCollinearBends([bend(0, [[20, 52], [49, 52]]), bend(1, [[134, 52], [163, 52]])], wings);
  assert.deepEqual(merged.map((b) => b.length), [29, 29]);
  assert.equal(merged[0].lineGroup, merged[1].lineGroup, 'one line, two segments');
  // a window across one bend (material all round it): still one bend of the whole length
  const windowed = polygon([[0, 0], [200, 0], [200, 80], [0, 80]]);
  const one = mergeCollinearBends([bend(0, [[0, 52], [90, 52]]), bend(1, [[110, 52], [200, 52]])], windowed);
  assert.deepEqual(one.map((b) => b.length), [200]);
});

test('equal-area rectangles (right isosceles triangle: leg or hypotenuse) resolve to the longer one', () => {
  const r = enclosingRectangle(polygon([[0, 0], [100, 0], [0, 100]]));
  assert.ok(Math.abs(r.length - 100 * Math.SQRT2) < 1e-9 && Math.abs(r.width - 50 * Math.SQRT2) < 1e-9, `${r.length} x ${r.width}`);
});

test('simplifyContour: a whole circle pieced from arcs is exactly one turn (no -360.0000001 degree sweeps)', () => {
  const piece = (a: number, b: number) => ({ kind: 'arc' as const, center: [3, 4] as Vec2, radius: 2, startDegrees: a, endDegrees: b, ccw: false });
  // the third piece starts a hair after the second ends: the sweeps add up to -359.9999999 degrees
  const c = simplifyContour([piece(10, -100), piece(-100, -200), piece(-200.0000001, -350)]);
  assert.equal(c.length, 1);
  assert.ok(c[0].kind === 'arc' && c[0].endDegrees - c[0].startDegrees === -360, JSON.stringify(c));
});
