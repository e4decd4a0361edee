import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importStep } from '../src/import/index.ts';
import { splitShells } from '../src/import/split.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import { groupInstances, signatureOf } from '../src/parts/instances.ts';
import { applyRigid } from '../src/parts/rigid.ts';
import { bestRigid } from '../src/parts/align.ts';
import type { ImportedSolid, Rigid, Vec3 } from '../src/geometry/model.ts';
import { normalize, norm, sub } from '../src/geometry/vec.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const importFixture = async (p: string): Promise<ImportedSolid[]> => importStep(readFileSync(root + 'fixtures/' + p));

function rotation(axis: Vec3, deg: number): Rigid['rotation'] {
  const [x, y, z] = normalize(axis), a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), C = 1 - c;
  return [[c + x * x * C, x * y * C - z * s, x * z * C + y * s], [y * x * C + z * s, c + y * y * C, y * z * C - x * s], [z * x * C - y * s, z * y * C + x * s, c + z * z * C]];
}

function moved(s: ImportedSolid, m: Rigid, name: string): ImportedSolid {
  const p = new Float64Array(s.positions.length);
  for (let i = 0; i < p.length; i += 3) p.set(applyRigid(m, [s.positions[i], s.positions[i + 1], s.positions[i + 2]]), i);
  return { ...s, name, positions: p };
}

function mirrored(s: ImportedSolid, name: string): ImportedSolid {
  const p = Float64Array.from(s.positions);
  for (let i = 0; i < p.length; i += 3) p[i] = -p[i];
  return { ...s, name, positions: p };
}

test('the assembly fixture: bracket x3 at different poses, its mirror image x1, plate x2', async () => {
  const solids = (await importFixture('assembly/asm_brackets_mirror.step')).map(buildSolid);
  const groups = groupInstances(solids);
  assert.deepEqual(groups.map((g) => g.members.length), [3, 1, 2]);
  // every motion maps the representative's vertices onto the instance's (exactly, up to float noise)
  for (const g of groups) {
    const rep = solids[g.representative];
    for (const m of g.members) {
      const inst = solids[m.solid];
      const from = signatureOf(rep).corners, to = signatureOf(inst).corners;
      assert.ok(from.length >= 8);
      for (const c of from) {
        const q = applyRigid(m.transform, c);
        assert.ok(Math.min(...to.map((p) => norm(sub(p, q)))) < 1e-6, 'corner lands on a corner');
      }
      const r = m.transform.rotation;
      const det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
      assert.ok(Math.abs(det - 1) < 1e-9, 'a proper rotation, never a reflection');
      assert.ok(Math.abs(inst.volume - rep.volume) / rep.volume < 3e-3);
    }
  }
});

test('every fixture: solid count, unique part count and instance counts equal the truth', async () => {
  const truth = JSON.parse(readFileSync(root + 'fixtures/truth.json', 'utf8')) as { fixtures: Array<{ id: string; file: string; solid_count: number; unique_part_count: number; parts: Array<{ instance_count: number }> }> };
  assert.ok(truth.fixtures.filter((f) => f.unique_part_count < f.solid_count).length >= 3, 'assemblies with repeated parts exist');
  for (const fx of truth.fixtures) {
    const solids = (await importFixture(fx.file)).map(buildSolid);
    assert.equal(solids.length, fx.solid_count, `${fx.id}: solids`);
    const groups = groupInstances(solids);
    assert.equal(groups.length, fx.unique_part_count, `${fx.id}: unique parts`);
    assert.deepEqual(groups.map((g) => g.members.length), fx.parts.map((p) => p.instance_count), `${fx.id}: instance counts`);
  }
});

test('rotated and translated copies are one part, with the motion recovered exactly; the mirror image of a chiral part is another part', async () => {
  const [bracket] = await importFixture('sheet/l_t2_holes_near_bend.step');
  const m1: Rigid = { rotation: rotation([1, 2, 3], 37), translation: [500, -20, 3.5] };
  const m2: Rigid = { rotation: rotation([0, 0, 1], 180), translation: [-40, 0, 0] };
  const solids = [bracket, moved(bracket, m1, 'b'), mirrored(bracket, 'mirror'), moved(bracket, m2, 'c')].map(buildSolid);
  const groups = groupInstances(solids);
  assert.equal(groups.length, 2);
  assert.deepEqual(groups[0].members.map((m) => m.solid), [0, 1, 3]);
  assert.deepEqual(groups[1].members.map((m) => m.solid), [2]);
  const got = groups[0].members[1].transform;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) assert.ok(Math.abs(got.rotation[i][j] - m1.rotation[i][j]) < 1e-9);
    assert.ok(Math.abs(got.translation[i] - m1.translation[i]) < 1e-6);
  }
});

test('the mirror image of a mirror-symmetric part is the same part', async () => {
  const [plate] = await importFixture('sheet/plate_t3_holes_slot.step');
  const groups = groupInstances([plate, mirrored(plate, 'mirror')].map(buildSolid));
  assert.equal(groups.length, 1);
  assert.equal(groups[0].members.length, 2);
});

test('different parts with equal volume are not merged', async () => {
  const [a] = await importFixture('sheet/l_t2_r2.step');
  const [b] = await importFixture('sheet/l_t2_r2_pose_a.step');
  const [c] = await importFixture('sheet/u_t1.5_r1.5.step');
  const groups = groupInstances([a, b, c].map(buildSolid));
  assert.deepEqual(groups.map((g) => g.members.length), [2, 1]);
});

test('two bodies in one mesh are split into two solids', async () => {
  const [a] = await importFixture('sheet/l_t2_r2.step');
  const b = moved(a, { rotation: rotation([0, 1, 0], 90), translation: [200, 0, 0] }, 'b');
  const n = a.positions.length / 3;
  const indices = new Uint32Array(a.indices.length * 2);
  indices.set(a.indices, 0);
  for (let i = 0; i < b.indices.length; i++) indices[a.indices.length + i] = b.indices[i] + n;
  const triA = a.indices.length / 3;
  const shells = splitShells({
    name: 'multi',
    positions: Float64Array.from([...a.positions, ...b.positions]),
    indices,
    faceRanges: [...a.faceRanges, ...b.faceRanges.map((r) => ({ first: r.first + triA, last: r.last + triA }))],
  });
  assert.equal(shells.length, 2);
  assert.ok(shells.every((s) => s.boundaryEdges === 0));
  const groups = groupInstances(shells.map(buildSolid));
  assert.deepEqual(groups.map((g) => g.members.length), [2]);
});

test('bestRigid recovers a rotation from exact corresponding points and never reflects', () => {
  const m: Rigid = { rotation: rotation([-1, 0.5, 2], 123), translation: [1, 2, 3] };
  const from: Vec3[] = [[0, 0, 0], [10, 0, 0], [0, 5, 0], [0, 0, 2], [3, 4, 5]];
  const got = bestRigid(from, from.map((p) => applyRigid(m, p)));
  for (const p of from) assert.ok(norm(sub(applyRigid(got, p), applyRigid(m, p))) < 1e-9);
});

test('a plain tube (every face centred on its axis) is one part however it is turned', async () => {
  const [t] = await importFixture('tubes/round-32x2-l100.step');
  const copies = [
    t,
    moved(t, { rotation: rotation([0, 0, 1], 90), translation: [100, 0, 0] }, 'b'),
    moved(t, { rotation: rotation([1, 1, 0], 33), translation: [0, 300, 10] }, 'c'),
    mirrored(t, 'mirror'),
  ].map(buildSolid);
  const groups = groupInstances(copies);
  assert.deepEqual(groups.map((g) => g.members.length), [4]);
});

test('every real corpus part and three rigidly moved copies of it are one part', async () => {
  const dir = root + '../shared/corpus/real/';
  const moves: Rigid[] = [
    { rotation: rotation([0, 0, 1], 90), translation: [50, 0, 0] },
    { rotation: rotation([1, 2, 3], 71), translation: [0, -40, 900] },
    { rotation: rotation([0, 1, 0], 180), translation: [0, 0, 0] },
  ];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.step'))) {
    const [s] = await importStep(readFileSync(dir + file));
    const groups = groupInstances([s, ...moves.map((m, i) => moved(s, m, `copy ${i}`))].map(buildSolid));
    assert.deepEqual(groups.map((g) => g.members.length), [4], file);
  }
});
