import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importStep, importStepDetailed } from '../src/import/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (p: string): Uint8Array => readFileSync(root + 'fixtures/' + p);
const corpus = (p: string): Uint8Array => readFileSync(root + '../shared/corpus/real/' + p);

function extents(positions: Float64Array): number[] {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], positions[i + k]); hi[k] = Math.max(hi[k], positions[i + k]); }
  return hi.map((h, k) => h - lo[k]).sort((a, b) => b - a);
}

test('a real SolidWorks part imports as one solid with typed arrays and face ranges covering every triangle', async () => {
  const [solid] = await importStep(corpus('ender3-y-plate.step'));
  assert.ok(solid.positions instanceof Float64Array);
  assert.ok(solid.indices instanceof Uint32Array);
  assert.ok(solid.faceRanges.length > 10);
  let covered = 0;
  for (const r of solid.faceRanges) { assert.ok(r.last >= r.first); covered += r.last - r.first + 1; }
  assert.equal(covered, solid.indices.length / 3);
  for (let i = 0; i < solid.indices.length; i++) assert.ok(solid.indices[i] < solid.positions.length / 3);
});

test('an inch STEP comes back in millimetres, the same size as its mm twin', async () => {
  const [mm] = await importStep(fixture('sheet/l_t2_r2.step'));
  const [inch] = await importStep(fixture('sheet/l_t2_r2_inch.step'));
  const a = extents(mm.positions), b = extents(inch.positions);
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(a[k] - b[k]) < 1e-6, `extent ${k}: ${a[k]} mm vs ${b[k]} mm`);
  assert.ok(a[0] > 30, 'the L bracket is tens of mm long, not a unit mix-up');
});

test('an assembly yields one solid per instance, in file order', async () => {
  const solids = await importStep(fixture('assembly/asm_brackets_mirror.step'));
  assert.equal(solids.length, 6);
  assert.equal(new Set(solids.map((s) => s.name)).size, 6);
});

test('a countersunk part whose cone seam vertex is written 1e-12 mm off is still a closed solid', async () => {
  const r = await importStepDetailed(fixture('sheet/plate_countersunk_t3.step'));
  assert.equal(r.solids.length, 1);
  assert.deepEqual(r.origins, [{ kind: 'solid' }], 'no shell left open');
});

test('importing the same bytes twice gives identical arrays (deterministic)', async () => {
  const bytes = fixture('sheet/u_t1.5_r1.5.step');
  const [a] = await importStep(bytes);
  const [b] = await importStep(bytes);
  assert.deepEqual(a.positions, b.positions);
  assert.deepEqual(a.indices, b.indices);
});

test('a solid with an internal void stays one solid (outer shell + inward-wound void shell)', async () => {
  const solids = await importStep(fixture('negative/neg_closed_box.step'));
  assert.equal(solids.length, 1);
  const { buildSolid } = await import('../src/geometry/topology.ts');
  const s = buildSolid(solids[0], 0);
  assert.ok(Math.abs(s.volume - 38784) < 1e-6, `volume ${s.volume}: 80 x 60 x 40 minus the 76 x 56 x 36 void`);
  assert.equal(s.faces.length, 12);
});

test('a shell with a small gap is still a solid (flagged); a lone face is a surface, not a solid', async () => {
  const { splitShells } = await import('../src/import/split.ts');
  const { isSolidShell } = await import('../src/import/index.ts');
  const [s] = await importStep(fixture('sheet/plate_t3_holes_slot.step'));
  const gap = s.indices.slice(3); // drop one triangle: three open sides
  const ranges = s.faceRanges.map((r) => ({ first: Math.max(0, r.first - 1), last: r.last - 1 })).filter((r) => r.last >= r.first);
  const [holed] = splitShells({ name: 'gap', positions: s.positions, indices: gap, faceRanges: ranges });
  assert.equal(holed.boundaryEdges, 3);
  assert.ok(isSolidShell(holed));
  const biggest = s.faceRanges.reduce((a, b) => (b.last - b.first > a.last - a.first ? b : a));
  const face = s.indices.slice(biggest.first * 3, (biggest.last + 1) * 3);
  const [surface] = splitShells({ name: 'face', positions: s.positions, indices: face, faceRanges: [{ first: 0, last: face.length / 3 - 1 }] });
  assert.ok(surface.boundaryEdges > 0);
  assert.equal(isSolidShell(surface), false);
});

test('a STEP writer placeholder name is not used as the part name', async () => {
  const text = new TextDecoder('latin1').decode(fixture('sheet/l_t2_r2.step'));
  const named = (await importStep(fixture('sheet/l_t2_r2.step')))[0].name;
  assert.ok(named.length > 0 && !/translator/i.test(named));
  const renamed = text.split(`'${named}'`).join(`'Open CASCADE STEP translator 7.8 1'`);
  assert.notEqual(renamed, text, 'the fixture carries its product name');
  const [s] = await importStep(new TextEncoder().encode(renamed));
  assert.equal(s.name, 'Solid 1');
});

test('faces whose shared vertices are written 20 nm apart (other CAD systems) still close into one solid', async () => {
  const { splitShells } = await import('../src/import/split.ts');
  const [s] = await importStep(fixture('sheet/l_t2_r2.step'));
  // every face gets its own copy of its vertices; odd faces' copies are moved by 20 nm
  const positions: number[] = [];
  const indices: number[] = [];
  s.faceRanges.forEach((r, f) => {
    const local = new Map<number, number>();
    for (let t = r.first; t <= r.last; t++) {
      for (let k = 0; k < 3; k++) {
        const v = s.indices[t * 3 + k];
        let nv = local.get(v);
        if (nv === undefined) {
          nv = positions.length / 3;
          local.set(v, nv);
          const shift = f % 2 === 1 ? 2e-5 : 0;
          positions.push(s.positions[v * 3] + shift, s.positions[v * 3 + 1] - shift, s.positions[v * 3 + 2]);
        }
        indices.push(nv);
      }
    }
  });
  const shells = splitShells({ name: 'noisy', positions: Float64Array.from(positions), indices: Uint32Array.from(indices), faceRanges: s.faceRanges });
  assert.equal(shells.length, 1);
  assert.equal(shells[0].boundaryEdges, 0);
});
