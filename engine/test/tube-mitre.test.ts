// Mitred tubes (issue 17, class 4): round, square and rectangular tubes with end cuts at 15 to 60
// degrees are recognised (fixtures/tubes, truth in tube-truth.test.ts), and every hole's distance to
// the end is measured to the real, slanted end, edge to edge on the unrolled outer wall. The truth here
// is computed from the fixture's parameters (spec.ts), independently of the engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyze } from '../src/analyze.ts';
import { SPECS, outerSectionOutline, type EndCut, type TubeSpec } from '../../fixtures/tubes/spec.ts';

const dir = fileURLToPath(new URL('../../fixtures/tubes/', import.meta.url));
/** Edge distances on flat walls, mm (the hole and end contours are exact curves refined on the surfaces). */
const DISTANCE_MM = 0.02;

const mitred = SPECS.filter((s): s is TubeSpec => s.kind === 'tube' && /mitre/.test(s.name));

/**
 * Edge-to-edge distance on the unrolled outer wall from a top-wall hole of a rectangular tube to the end
 * contours: the end contour sampled round the section (s = arc length), x from its cut plane.
 */
function truthDistance(spec: TubeSpec, hole: { x: number; d: number }): number {
  const sec = spec.section;
  if (sec.kind !== 'rect') throw new Error('flat walls only');
  const pts = outerSectionOutline(sec, 40000);
  const s: number[] = [0];
  for (let i = 1; i < pts.length; i++) s.push(s[i - 1] + Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]));
  // the hole's centre is the top of the section (y 0, z h/2), halfway along the top side: between the
  // last sample of the first corner arc (y w/2 - r) and the first of the second (y -(w/2 - r))
  const first = pts.findIndex((p, i) => i > 0 && p[0] < 0);
  const topS = s[first - 1] + pts[first - 1][0];
  const xOf = (cut: EndCut | undefined, x0: number, y: number, z: number) => {
    const tan = cut ? Math.tan((cut.angle * Math.PI) / 180) : 0;
    return x0 - tan * (cut?.about === 'y' ? z : y);
  };
  // the outline samples the corner arcs; a flat side is the straight piece between two samples, and a
  // planar cut keeps it straight on the unrolled wall: distance to each piece
  const toPiece = (p: [number, number], a: [number, number], b: [number, number]) => {
    const dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
    const u = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
    return Math.hypot(a[0] + u * dx - p[0], a[1] + u * dy - p[1]);
  };
  let best = Infinity;
  for (const [cut, x0] of [[spec.start, 0], [spec.end, spec.length]] as Array<[EndCut | undefined, number]>) {
    const q = pts.map(([y, z], i): [number, number] => [xOf(cut, x0, y, z), s[i] - topS]);
    for (let i = 1; i < q.length; i++) best = Math.min(best, toPiece([hole.x, 0], q[i - 1], q[i]));
  }
  return best - hole.d / 2;
}

test('mitred tube fixtures: four angles on a rectangular tube, a square picture-frame member, a round tube', () => {
  assert.deepEqual(mitred.filter((s) => s.name.startsWith('rect-')).map((s) => s.start!.angle), [15, 30, 45, 60]);
  assert.ok(mitred.some((s) => s.section.kind === 'round') && mitred.some((s) => s.section.kind === 'rect' && s.section.width === s.section.height));
});

for (const spec of mitred) {
  test(`${spec.name}: recognised, holes measured to the mitred end`, async () => {
    const design = await analyze(new Uint8Array(readFileSync(`${dir}${spec.name}.step`)));
    const part = design.parts[0];
    assert.equal(part.manufacturable, true, `${part.unsupported_reason}: ${part.unsupported_message}`);
    assert.equal(part.suggested_process, 'tube_laser');
    assert.ok(part.tube, 'a tube');
    assert.equal(part.holes.length, spec.features!.length);
    if (spec.section.kind !== 'rect') return;
    // the engine's frame may run from either end: compare the distances as sets
    const got = part.holes.map((h) => h.distance_to_nearest_edge_mm).sort((a, b) => a - b);
    const want = spec.features!.map((f) => truthDistance(spec, f as { x: number; d: number })).sort((a, b) => a - b);
    got.forEach((d, i) => assert.ok(Math.abs(d - want[i]) <= DISTANCE_MM, `hole ${i + 1}: ${d} mm to the end, want ${want[i].toFixed(4)} (all: ${got.join(', ')})`));
  });
}
