// Tube parts against the metric tube stock (issue 32, item 3): the EN 10219 / EN 10305 sections are
// in the catalog with their published sizes, a section the catalog lacks is named with the nearest
// profiles, and a model whose corners are not the stock's gets a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCatalog } from '../src/catalog/index.ts';
import { dfm, type DfmReport } from '../src/dfm/index.ts';
import type { Part, TubeInfo } from '../src/contract.ts';
import { designOf, tubePart } from './helpers/examples.ts';

const catalog = defaultCatalog();
const CTX = { id: 'dfm_tube_stock', now: '2026-11-28T00:00:00.000Z' };
const run = (parts: Part[], configuration: unknown): DfmReport => dfm(designOf(parts), configuration, catalog, CTX);
const box = (w: number, h: number, t: number, r: number): TubeInfo => ({
  profile: w === h ? 'square' : 'rectangular', outer_diameter_mm: null, outer_width_mm: w, outer_height_mm: h, wall_thickness_mm: t, corner_radius_mm: r, length_mm: 400, cut_length_mm: 4 * (w + h),
});
const metric = catalog.tube_profiles.filter((p) => p.type === 'steel_s235');
const has = (shape: string, a: number, b: number | null, t: number) => metric.some((p) => p.shape === shape && p.wall_thickness_mm === t
  && (shape === 'round' ? p.outer_diameter_mm === a : p.outer_width_mm === a && p.outer_height_mm === b));

test('the metric stock holds the common EN 10219-2 and EN 10305 sections', () => {
  // square 20 to 100, rectangular 40 x 20 to 120 x 60, round 21.3 to 88.9 (EN 10219-2 outside diameters)
  for (const a of [20, 25, 30, 40, 50, 60, 70, 80, 100]) assert.ok(metric.some((p) => p.shape === 'square' && p.outer_width_mm === a), `square ${a}`);
  for (const [a, b, t] of [[40, 20, 2], [50, 30, 2], [60, 40, 3], [80, 40, 3], [100, 50, 4], [120, 60, 4]]) assert.ok(has('rectangular', a, b, t), `rectangular ${a} x ${b} x ${t}`);
  for (const d of [21.3, 26.9, 33.7, 42.4, 48.3, 60.3, 76.1, 88.9, 20, 25, 30, 40, 50]) assert.ok(metric.some((p) => p.shape === 'round' && p.outer_diameter_mm === d), `round ${d}`);
  assert.ok(has('square', 80, 80, 4), 'the CNC frame section 80 x 80 x 4');
  // EN 10219-2: external corner radius 1.6 T to 2.4 T for T <= 6 mm; listed at 2 T
  for (const p of metric.filter((x) => x.shape !== 'round')) assert.equal(p.corner_radius_mm, 2 * p.wall_thickness_mm, p.id);
  assert.equal(new Set(catalog.tube_profiles.map((p) => p.id)).size, catalog.tube_profiles.length);
});

test('metric profiles weigh what the EN 10219-2 tables publish (kg/m, within 1.5 %)', () => {
  const published: Array<[string, number]> = [
    ['tub_s235_square_40x40_2w', 2.31], ['tub_s235_square_80x80_4w', 9.22], ['tub_s235_square_100x100_4w', 11.7],
    ['tub_s235_round_48_3od_3_2w', 3.56], ['tub_s235_round_88_9od_3_2w', 6.76],
  ];
  for (const [id, kg] of published) {
    const p = catalog.tube_profiles.find((x) => x.id === id);
    assert.ok(p, id);
    assert.ok(Math.abs(p.weight_g_per_m / 1000 - kg) <= 0.015 * kg, `${id}: ${p.weight_g_per_m} g/m, published ${kg} kg/m`);
  }
});

test('a section the catalog lacks is named, with the nearest profiles, not a bare mismatch', () => {
  const arm = tubePart({ name: 'arm', holes: [], tube: box(100, 30, 2, 0) });
  const r = run([arm], { defaults: { tube_profile_id: 'tub_s235_square_40x40_2w' } });
  const issue = r.parts[0].issues.find((i) => i.code === 'tube_profile_mismatch');
  assert.ok(issue);
  assert.match(issue.message, /No 100 x 30 x 2 mm rectangular profile in the catalog; nearest: tub_s235_/);
  const d = issue.details as { matching_tube_profile_ids: string[]; nearest_tube_profile_ids: string[] };
  assert.deepEqual(d.matching_tube_profile_ids, []);
  assert.equal(d.nearest_tube_profile_ids.length, 3);
  // the nearest are box sections close in size and wall, not round tubes
  for (const id of d.nearest_tube_profile_ids) assert.notEqual(catalog.tube_profiles.find((p) => p.id === id)?.shape, 'round', id);
  // without a selection the requirement already says so
  const req = run([arm], {}).requirements.find((q) => q.code === 'tube_profile_required');
  assert.match(req?.message ?? '', /No 100 x 30 x 2 mm rectangular profile in the catalog; nearest: /);
});

test('a wrong selection for a section the catalog has points at the profiles of that section', () => {
  const frame = tubePart({ name: 'frame', holes: [], tube: box(80, 80, 4, 8) });
  const issue = run([frame], { defaults: { tube_profile_id: 'tub_s235_square_50x50_3w' } }).parts[0].issues.find((i) => i.code === 'tube_profile_mismatch');
  assert.match(issue?.message ?? '', /80 x 80 x 4 mm square tube; .* Profiles of that section: tub_s235_square_80x80_4w\./);
  const ok = run([frame], { defaults: { tube_profile_id: 'tub_s235_square_80x80_4w' } });
  assert.ok(!ok.parts[0].issues.some((i) => i.code === 'tube_profile_mismatch'));
});

test('a sharp-cornered model matches its stock section and is warned about the corner radius', () => {
  const warn = (r: number, id = 'tub_s235_square_40x40_2w', section = box(40, 40, 2, r)) => {
    const rep = run([tubePart({ name: 'leg', holes: [], tube: section })], { defaults: { tube_profile_id: id } });
    assert.ok(!rep.parts[0].issues.some((i) => i.code === 'tube_profile_mismatch'), `r ${r}: the section matches`);
    return rep.parts[0].production_warning_details.find((w) => w.code === 'tube_corner_radius_differs');
  };
  assert.match(warn(0)?.message ?? '', /modelled with sharp corners; .* made with 4 mm outer corners/);
  assert.match(warn(1)?.message ?? '', /modelled with 1 mm outer corners/);
  // within EN 10219's 1.6 T to 2.4 T: no warning
  assert.equal(warn(4), undefined);
  assert.equal(warn(3.3), undefined);
  // a sharp aluminium extrusion is sharp stock
  assert.equal(warn(0, 'tub_6061_t6_square_1_00x1_00_0_125w', box(25.4, 25.4, 3.175, 0)), undefined);
});
