// Tubes as people model them, end to end (analyze + dfm, issue 32 item 3): real public parts with
// the truth their authors give, and the built fixtures that used to reach the sheet recogniser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyze } from '../src/analyze.ts';
import { defaultCatalog } from '../src/catalog/index.ts';
import { dfm } from '../src/dfm/index.ts';

const TUBES = fileURLToPath(new URL('../../fixtures/tubes/', import.meta.url));
const catalog = defaultCatalog();
const CTX = { id: 'dfm_tube_real', now: '2026-11-28T00:00:00.000Z' };
const design = async (file: string) => analyze(new Uint8Array(readFileSync(TUBES + file)), { fileName: file, createdAt: CTX.now });

// CubeFactory 2 (TU Berlin, CC BY-SA 4.0), recycler extruder: "02_03_00-tube_100-DN15", a DN 15
// pipe 100 mm long with the hopper's feed opening. DN 15 is Ø21.3 mm; the model's 2.65 mm wall is
// DIN 2440's medium pipe (EN 10255 medium: 2.6 mm).
test('real: CubeFactory DN 15 extruder tube is a Ø21.3 x 2.65 tube of 100 mm matched to the DN 15 pipe profile', async () => {
  const d = await design('real/cubefactory-02_03_00-tube_100-DN15.step');
  assert.equal(d.parts.length, 1);
  const p = d.parts[0];
  assert.equal(p.suggested_process, 'tube_laser', p.unsupported_message ?? '');
  assert.equal(p.tube?.profile, 'round');
  assert.ok(Math.abs((p.tube?.outer_diameter_mm ?? 0) - 21.3) < 0.02, `OD ${p.tube?.outer_diameter_mm}`);
  assert.ok(Math.abs((p.tube?.wall_thickness_mm ?? 0) - 2.65) < 0.01, `wall ${p.tube?.wall_thickness_mm}`);
  assert.ok(Math.abs((p.tube?.length_mm ?? 0) - 100) < 0.05, `length ${p.tube?.length_mm}`);
  const open = dfm(d, {}, catalog, CTX);
  const req = open.requirements.find((q) => q.code === 'tube_profile_required');
  assert.match(req?.message ?? '', /Profiles of that section: tub_s235_round_21_3od_2_6w\./);
  const chosen = dfm(d, { defaults: { tube_profile_id: 'tub_s235_round_21_3od_2_6w' } }, catalog, CTX);
  assert.ok(!chosen.parts[0].issues.some((i) => i.code === 'tube_profile_mismatch'));
});

// CubeFactory 2 (CC BY-SA 4.0), case rail: "Bolzen" (German: pin), a stepped Ø2 / Ø1.1 pin 4.3 mm long.
test('real: CubeFactory pin (Bolzen) is a solid bar, not a tube (before: a 4.3 mm machined sheet)', async () => {
  const p = (await design('real/cubefactory-bolzen.step')).parts[0];
  assert.equal(p.manufacturable, false);
  assert.equal(p.unsupported_reason, 'not_a_tube');
  assert.match(p.unsupported_message ?? '', /solid bar or shaft Ø2 x 4.3 mm: a solid bar, not a tube/);
});

test('a drone arm with a row of windows is a tube, not a 30 mm thick sheet', async () => {
  const p = (await design('rect-100x30x2-sharp-arm-windows.step')).parts[0];
  assert.equal(p.suggested_process, 'tube_laser', p.unsupported_message ?? '');
  assert.deepEqual([p.tube?.outer_width_mm, p.tube?.outer_height_mm, p.tube?.wall_thickness_mm, p.tube?.corner_radius_mm], [100, 30, 2, 0]);
  // no 100 x 30 x 2 section is stocked: the requirement says so and names the nearest
  const req = dfm(await design('rect-100x30x2-sharp-arm-windows.step'), {}, catalog, CTX).requirements.find((q) => q.code === 'tube_profile_required');
  assert.match(req?.message ?? '', /No 100 x 30 x 2 mm rectangular profile in the catalog; nearest: /);
});

test('a sharp-cornered tube with a plate fused inside is refused as a tube, never unfolded as sheet', async () => {
  const p = (await design('neg-sharp-tube-partition.step')).parts[0];
  assert.equal(p.suggested_process, 'tube_laser');
  assert.equal(p.bend_count, 0);
  assert.match(p.unsupported_message ?? '', /40 x 40 x 1 mm sharp-cornered square tube open at both ends/);
});

test('a sharp-cornered 40 x 40 x 2 model matches the EN 10219 40 x 40 x 2 profile, with a corner warning', async () => {
  const d = await design('square-40x2-sharp-l200-cross-hole.step');
  const r = dfm(d, { defaults: { tube_profile_id: 'tub_s235_square_40x40_2w' } }, catalog, CTX);
  assert.ok(!r.parts[0].issues.some((i) => i.code === 'tube_profile_mismatch'));
  assert.match(r.parts[0].production_warning_details.find((w) => w.code === 'tube_corner_radius_differs')?.message ?? '', /sharp corners; .* 4 mm outer corners/);
});
