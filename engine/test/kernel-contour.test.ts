// A real enclosure's flat (ender3-sheetmetal-enclosure-bottom) joins its segments within 2.6e-5 mm;
// OCCT joins wire edges within 1e-7 mm, so its exact flat STEP failed. Edges handed to the kernel
// must meet exactly, arcs untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kernelEdges, KERNEL_CONFUSION_MM } from '../src/files/kernel-contour.ts';
import { writeFlatStep } from '../src/files/occt-exact.ts';
import type { Contour } from '../src/geometry/model.ts';

const GAP = 2.6e-5; // mm, as measured on the real part
const W = 40, H = 20, R = 3; // rounded rectangle, mm

/** A rounded rectangle whose lines stop GAP short of the arcs, as the unfolder's can. */
function gappyRoundedRectangle(): Contour {
  const arc = (cx: number, cy: number, s: number) => ({ kind: 'arc' as const, center: [cx, cy] as [number, number], radius: R, startDegrees: s, endDegrees: s + 90, ccw: true });
  return [
    { kind: 'line', a: [R + GAP, 0], b: [W - R - GAP, 0] }, arc(W - R, R, -90),
    { kind: 'line', a: [W, R + GAP], b: [W, H - R - GAP] }, arc(W - R, H - R, 0),
    { kind: 'line', a: [W - R - GAP, H], b: [R + GAP, H] }, arc(R, H - R, 90),
    { kind: 'line', a: [0, H - R - GAP], b: [0, R + GAP] }, arc(R, R, 180),
  ];
}

test('kernel edges meet exactly and keep every arc as it was', () => {
  const contour = gappyRoundedRectangle();
  const edges = kernelEdges(contour);
  for (let i = 0; i < edges.length; i++) {
    const e = edges[i], next = edges[(i + 1) % edges.length];
    assert.ok(Math.hypot(e.b[0] - next.a[0], e.b[1] - next.a[1]) <= KERNEL_CONFUSION_MM, `edge ${i} ends where edge ${i + 1} starts`);
  }
  const arcs = edges.filter((e) => e.kind === 'arc');
  assert.equal(arcs.length, 4);
  for (const a of arcs) assert.ok(contour.includes(a.arc), 'arc passed through unchanged');
});

test('two arcs meeting a few micrometres apart are bridged by a line of the gap', () => {
  const contour: Contour = [
    { kind: 'arc', center: [0, 0], radius: 10, startDegrees: 0, endDegrees: 180, ccw: true },
    { kind: 'arc', center: [GAP, 0], radius: 10, startDegrees: 180, endDegrees: 360, ccw: true },
  ];
  const edges = kernelEdges(contour);
  const bridges = edges.filter((e) => e.kind === 'line');
  assert.ok(bridges.length >= 1);
  for (const b of bridges) assert.ok(Math.hypot(b.b[0] - b.a[0], b.b[1] - b.a[1]) <= GAP * 1.0001);
});

test('the exact flat STEP of a contour with micrometre gaps is built, with area x thickness volume', async () => {
  const t = 1.5;
  const { volume } = await writeFlatStep(gappyRoundedRectangle(), [], t);
  const area = W * H - (4 - Math.PI) * R * R;
  assert.ok(Math.abs(volume - area * t) / (area * t) < 1e-4, `volume ${volume} vs ${area * t}`);
});
