// buildSolids (geometry/topology.ts): an instance of a product already built is that solid moved, and
// the moved solid is the one buildSolid makes of the instance itself (#32.6: speed on real assemblies).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importStep } from '../src/import/index.ts';
import { buildSolid, buildSolids } from '../src/geometry/topology.ts';
import type { Solid, Surface } from '../src/geometry/model.ts';

const fixture = (p: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../fixtures/${p}`, import.meta.url)));
/** Surfaces fitted afresh and moved agree to float noise, mm / radians. */
const SURFACE_TOLERANCE = 1e-6;

const close = (a: number[], b: number[], what: string) => a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) <= SURFACE_TOLERANCE, `${what}: ${a} vs ${b}`));
function sameSurface(a: Surface, b: Surface, what: string): void {
  assert.equal(a.kind, b.kind, what);
  if (a.kind === 'plane' && b.kind === 'plane') { close(a.normal, b.normal, what); close([a.offset], [b.offset], what); }
  if (a.kind === 'cylinder' && b.kind === 'cylinder') {
    close([Math.abs(a.axis[0] * b.axis[0] + a.axis[1] * b.axis[1] + a.axis[2] * b.axis[2])], [1], `${what} axis`);
    close([a.radius], [b.radius], `${what} radius`);
    assert.equal(a.convex, b.convex, what);
  }
}

function sameSolid(a: Solid, b: Solid): void {
  assert.deepEqual(a.points, b.points, 'points');
  assert.deepEqual(a.triangles, b.triangles, 'triangles');
  assert.deepEqual(a.edges, b.edges, 'edges');
  assert.equal(a.faces.length, b.faces.length);
  a.faces.forEach((f, i) => {
    const g = b.faces[i];
    assert.deepEqual([f.vertices, f.loops, f.neighbours, f.triangles], [g.vertices, g.loops, g.neighbours, g.triangles], `face ${i} topology`);
    sameSurface(f.surface, g.surface, `face ${i}`);
  });
  close([a.volume, a.area], [b.volume, b.area], 'volume and area');
  assert.deepEqual([a.bbox, a.name, a.index], [b.bbox, b.name, b.index]);
}

test('instances built as moved twins equal the solids built one by one; mirrors are built on their own', async () => {
  for (const file of ['assembly/asm_instanced_products.step', 'assembly/asm_brackets_mirror.step', 'assembly/asm_instanced_inch.step']) {
    const imported = await importStep(fixture(file));
    const fast = buildSolids(imported);
    const slow = imported.map((s, i) => buildSolid(s, i));
    assert.equal(fast.length, slow.length);
    fast.forEach((s, i) => sameSolid(s, slow[i]));
  }
});

test('a twin shares the first instance\'s topology instead of being fitted again', async () => {
  const imported = await importStep(fixture('assembly/asm_instanced_products.step'));
  const solids = buildSolids(imported);
  const channels = solids.filter((s) => s.name === 'u_channel');
  assert.equal(channels.length, 4);
  for (const c of channels.slice(1)) assert.equal(c.triangles, channels[0].triangles, 'the same triangles, not a rebuilt copy');
});
