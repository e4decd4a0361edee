// Holes are round or slots by measured shape (#32.4), not by how many arcs and lines the exporter
// wrote: an outline within 0.01 mm of a circle is a round hole of the fitted diameter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyHole, fitCircle } from '../src/sheet/holes.ts';
import type { Contour, Vec2 } from '../src/geometry/model.ts';

const arc = (center: Vec2, radius: number, startDegrees: number, endDegrees: number): Contour[number] => ({ kind: 'arc', center, radius, startDegrees, endDegrees, ccw: false });
const at = (c: Vec2, r: number, deg: number): Vec2 => [c[0] + r * Math.cos((deg * Math.PI) / 180), c[1] + r * Math.sin((deg * Math.PI) / 180)];

test('a 3.8 mm hole on a flange 0.99 degrees off its axis (an ellipse in four arcs) is round, not a slot', () => {
  // the skin cuts the tilted cylinder in an ellipse 3.8 x 3.8 / cos(0.99 deg): OCCT gives it as arcs of nearby circles
  const r = 1.9, major = r / Math.cos((0.99 * Math.PI) / 180), c: Vec2 = [20, 10];
  const pieces: Contour = [0, -90, -180, -270].map((a) => {
    const rr = a % 180 === 0 ? major : r;
    return arc([c[0] + (a === 0 ? major - rr : a === -180 ? rr - major : 0), c[1]], rr, a, a - 90);
  });
  const h = classifyHole(pieces);
  assert.equal(h.shape, 'round');
  assert.ok(Math.abs(h.diameter - 3.8) < 0.01, `${h.diameter}`);
  assert.ok(Math.hypot(h.center[0] - 20, h.center[1] - 10) < 1e-3);
});

test('two half circles with 5 micron lines between them: round (fitted), a 2 mm long slot stays a slot', () => {
  const c: Vec2 = [0, 0], r = 1.9;
  const almost: Contour = [arc([0.0025, 0], r, 90, -90), { kind: 'line', a: at([0.0025, 0], r, -90), b: at([-0.0025, 0], r, -90) }, arc([-0.0025, 0], r, -90, -270), { kind: 'line', a: at([-0.0025, 0], r, 90), b: at([0.0025, 0], r, 90) }];
  const h = classifyHole(almost);
  assert.equal(h.shape, 'round');
  assert.ok(Math.abs(h.diameter - 3.8) < 0.01, `${h.diameter}`);
  const slot: Contour = [arc([1, 0], r, 90, -90), { kind: 'line', a: at([1, 0], r, -90), b: at([-1, 0], r, -90) }, arc([-1, 0], r, -90, -270), { kind: 'line', a: at([-1, 0], r, 90), b: at([1, 0], r, 90) }];
  const s = classifyHole(slot);
  assert.equal(s.shape, 'slot');
  assert.ok(Math.abs((s.slotLength ?? 0) - 5.8) < 1e-9);
  assert.ok(fitCircle(slot)!.deviation > 0.01);
  void c;
});

test('a circle written as 360 chords (0.0001 mm deep) is round; a square is not', () => {
  const r = 2.5, n = 360;
  const pts = Array.from({ length: n }, (_, i) => at([0, 0], r, -i)); // clockwise, chord sagitta ~ r (1 - cos 0.5 deg) = 0.0001 mm
  const poly: Contour = pts.map((a, i) => ({ kind: 'line', a, b: pts[(i + 1) % n] }));
  const h = classifyHole(poly);
  assert.equal(h.shape, 'round');
  assert.ok(Math.abs(h.diameter - 5) < 1e-3);
  const sq: Vec2[] = [[0, 0], [0, 4], [4, 4], [4, 0]];
  assert.equal(classifyHole(sq.map((a, i) => ({ kind: 'line', a, b: sq[(i + 1) % 4] }))).shape, 'other');
});

test('holes drilled 0.99 and 5 degrees off the sheet normal: round at the drill\'s 3.8 mm, one circle each in the flat', async () => {
  const { analyzeModel } = await import('../src/analyze.ts');
  const { readFileSync } = await import('node:fs');
  const model = await analyzeModel(new Uint8Array(readFileSync(new URL('../../fixtures/blind/plate_tilted_holes.step', import.meta.url))), { fileName: 'tilted.step' });
  const p = model.design.parts[0];
  assert.deepEqual(p.holes.map((h) => [h.shape, h.diameter_mm]), [['round', 3.8], ['round', 3.8]]);
  const a = model.parts[0].analysis;
  assert.ok(a.kind === 'sheet');
  for (const c of a.flat.inner) assert.ok(c.length === 1 && c[0].kind === 'arc' && Math.abs(c[0].radius - 1.9) < 1e-6, JSON.stringify(c).slice(0, 200));
  // only the 5 deg hole moves between the 2 mm skins by more than the 0.1 mm cutting tolerance (0.175 mm; the 0.99 deg one 0.035 mm)
  const tilted = p.warnings.filter((w) => w.code === 'tilted_hole');
  assert.equal(tilted.length, 1, JSON.stringify(p.warnings));
  assert.match(tilted[0].message, /^hole \d is drilled 5\.00 deg off the sheet normal, so its ends on the two skins are 0\.175 mm apart: more than the 0\.1 mm cutting tolerance/);
  assert.doesNotMatch(tilted[0].message, /0\.99 deg/);
});
