import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { catalogEntries, defaultCatalog, hardwareModelGlb, indexCatalog } from '../src/catalog/index.ts';
import { interpolateKFactor } from '../src/sheet/kfactor.ts';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator') as { validateBytes(b: Uint8Array): Promise<{ issues: { numErrors: number; messages: unknown[] } }> };
const catalog = defaultCatalog();

test('catalog sizes and families meet the issue', () => {
  assert.ok(catalog.materials.length >= 40, `${catalog.materials.length} materials`);
  assert.ok(catalog.tube_profiles.length >= 30);
  assert.ok(catalog.powder_coat_colors.length >= 20);
  const types = new Set(catalog.materials.map((m) => m.type));
  for (const t of ['mild_steel', 'galvanized_steel', 'stainless_304', 'stainless_316', 'aluminum_5052', 'aluminum_6061', 'copper', 'brass']) assert.ok(types.has(t as never), t);
  const metric = new Set(catalog.materials.filter((m) => m.id.endsWith('mm')).map((m) => m.thickness_mm));
  for (const t of [0.8, 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6]) assert.ok(metric.has(t), `metric ${t} mm`);
  const tubeTypes = new Set(catalog.tube_profiles.map((t) => t.type));
  for (const t of ['chromoly_4130', 'steel_a500', 'steel_dom', 'stainless_304', 'aluminum_6061', 'aluminum_6063', 'steel_s235']) assert.ok(tubeTypes.has(t as never), t);
  assert.deepEqual(new Set(catalog.tube_profiles.map((t) => t.shape)), new Set(['round', 'square', 'rectangular']));
  for (const f of ['powder_coat', 'anodize', 'zinc_plate', 'deburr', 'brush', 'none']) assert.ok(catalog.finishes.some((x) => x.type === f), f);
  assert.ok(catalog.taps.some((t) => t.standard === 'metric') && catalog.taps.some((t) => t.standard === 'unified'));
});

test('ids are unique, stable and carry the contract prefixes', () => {
  const prefixes: Array<[string, Array<{ id: string }>]> = [
    ['mat_', catalog.materials], ['tub_', catalog.tube_profiles], ['fin_', catalog.finishes], ['pcc_', catalog.powder_coat_colors],
    ['tap_', catalog.taps], ['std_', catalog.studs], ['nut_', catalog.nuts], ['sto_', catalog.standoffs],
  ];
  const all = new Set<string>();
  for (const [p, xs] of prefixes) for (const x of xs) {
    assert.ok(x.id.startsWith(p), x.id);
    assert.match(x.id, /^[a-z0-9_]+$/);
    assert.ok(!all.has(x.id), `duplicate ${x.id}`);
    all.add(x.id);
  }
  assert.ok(all.has('mat_5052_h32_0_063in'));
  assert.ok(all.has('mat_304_2_0mm'));
  assert.ok(all.has('mat_mild_steel_0_048in'));
  assert.match(catalog.version, /^\d{4}-\d{2}-\d{2}\.\d+$/);
});

test('material entries are self-consistent', () => {
  for (const m of catalog.materials) {
    assert.ok(Math.abs(m.thickness_in * 25.4 - m.thickness_mm) < 0.01, m.id);
    assert.ok(Math.abs(m.weight_g_per_cm2 - (m.density_g_per_cm3 * m.thickness_mm) / 10) < 1e-3, m.id);
    assert.ok(m.min_bend_radius_mm > 0 && m.default_bend_radius_mm >= m.min_bend_radius_mm, m.id);
    assert.ok(m.min_hole_diameter_mm >= 0.5 * m.thickness_mm - 1e-9, m.id);
    assert.ok(m.min_flange_length_mm >= 4 * m.thickness_mm, m.id);
    assert.ok(m.cut_speed_mm_per_min > 0 && m.pierce_time_s > 0 && m.price_per_kg_cents > 0, m.id);
    assert.equal(m.max_bend_length_mm > 0, m.bendable, m.id);
    for (let i = 1; i < m.k_factor_table.length; i++) assert.ok(m.k_factor_table[i][0] > m.k_factor_table[i - 1][0], `${m.id} K table sorted`);
  }
  const ix = indexCatalog(catalog);
  assert.equal(ix.materials.get('mat_6061_t6_0_125in')!.bendable, false, '6061-T6 cracks');
  assert.equal(ix.materials.get('mat_304_0_024in')!.bendable, false, 'below 0.030"');
  assert.equal(ix.materials.get('mat_mild_steel_0_250in')!.bendable, true);
  // published: a 0.048" steel SKU bends at R 0.045" with K 0.38; our table interpolates there
  const steel = ix.materials.get('mat_mild_steel_0_048in')!;
  const k = interpolateKFactor(steel.k_factor_table, 0.045 / 0.048);
  assert.ok(Math.abs(k - 0.38) < 0.01, `K ${k}`);
  // interpolation uses the whole table, not only its first rows
  assert.ok(Math.abs(interpolateKFactor(steel.k_factor_table, 5) - 0.47) < 1e-9);
  // thicker is slower to cut
  const speeds = catalog.materials.filter((m) => m.type === 'mild_steel' && m.id.endsWith('mm')).map((m) => m.cut_speed_mm_per_min);
  for (let i = 1; i < speeds.length; i++) assert.ok(speeds[i] <= speeds[i - 1]);
});

test('tube profiles carry the contract fields', () => {
  for (const t of catalog.tube_profiles) {
    if (t.shape === 'round') assert.ok(t.outer_diameter_mm! > 0 && t.outer_width_mm === null && t.corner_radius_mm === null, t.id);
    else assert.ok(t.outer_width_mm! > 0 && t.outer_height_mm! > 0 && t.outer_diameter_mm === null, t.id);
    if (t.shape === 'square') assert.equal(t.outer_width_mm, t.outer_height_mm);
    assert.ok(t.wall_thickness_mm > 0 && t.default_stock_length_mm > 5000 && t.weight_g_per_m > 0, t.id);
    if (t.type === 'steel_a500') assert.ok(Math.abs(t.corner_radius_mm! - 2 * t.wall_thickness_mm) < 0.01, 'A500 corner R = 2 wall');
  }
  // 1" x .065 4130: 0.9 kg/m (steel handbook 0.6491 lb/ft = 0.966 kg/m)
  const t = catalog.tube_profiles.find((x) => x.id === 'tub_4130_round_1_000od_0_065w')!;
  assert.ok(Math.abs(t.weight_g_per_m - 966) < 10, String(t.weight_g_per_m));
});

test('finishes and colours', () => {
  for (const f of catalog.finishes) {
    assert.ok(f.processes.length > 0 && f.price_per_cm2_cents >= 0 && Number.isInteger(f.base_price_cents), f.id);
  }
  assert.deepEqual(catalogEntries(catalog, 'finishes', { process: 'tube_laser' }).map((f) => (f as { id: string }).id).includes('fin_brush'), false);
  for (const c of catalog.powder_coat_colors) {
    assert.match(c.hex_color, /^#[0-9A-F]{6}$/);
    assert.equal(c.viewer.base_color, c.hex_color);
    assert.ok(c.viewer.metalness >= 0 && c.viewer.metalness <= 1 && c.viewer.roughness > 0 && c.viewer.roughness <= 1 && c.viewer.gloss >= 0 && c.viewer.gloss <= 1);
    assert.ok(c.price_multiplier >= 1);
  }
  assert.ok(catalog.powder_coat_colors.some((c) => !c.available), 'one colour is out of stock (drives the capability test)');
});

test('self-clinching hardware carries the published figures and hardness rule', () => {
  const ix = indexCatalog(catalog);
  const fh = ix.studs.get('std_fh_m3_8')!;
  assert.deepEqual([fh.min_sheet_thickness_mm, fh.mounting_hole_mm, fh.min_center_to_edge_mm], [1.0, 3.0, 5.6]);
  const cls = ix.nuts.get('nut_cls_m6')!;
  assert.deepEqual([cls.min_sheet_thickness_mm, cls.mounting_hole_mm, cls.min_center_to_edge_mm], [0.92, 8.75, 8.6]);
  const so = ix.standoffs.get('sto_so_m3_10')!;
  assert.deepEqual([so.min_sheet_thickness_mm, so.mounting_hole_mm, so.min_center_to_edge_mm], [1.02, 4.22, 6.0]);
  for (const h of [...catalog.studs, ...catalog.nuts, ...catalog.standoffs]) {
    assert.equal(h.compatible_material_types.includes('stainless_304'), h.body_material === 'stainless', h.id);
  }
  const m3 = ix.taps.get('tap_m3x0_5')!;
  assert.ok(m3.hole_diameter_min_mm <= 2.5 && m3.hole_diameter_max_mm >= 3.0);
});

test('hardware models are valid GLB sized from their dimensions', async () => {
  for (const h of [catalog.studs[0], catalog.nuts[0], catalog.standoffs[0]]) {
    const glb = hardwareModelGlb(h);
    const report = await validator.validateBytes(glb);
    assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 3)));
    const jsonLen = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
    const gltf = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLen)));
    const pos = gltf.accessors[gltf.meshes[0].primitives[0].attributes.POSITION];
    const heightM = pos.max[1] - pos.min[1];
    const widthM = pos.max[0] - pos.min[0];
    const g = h.geometry;
    assert.ok(Math.abs(heightM * 1000 - (g.head_height_mm + g.body_length_mm)) < 0.01, `${h.id} height`);
    assert.ok(Math.abs(widthM * 1000 - g.head_diameter_mm) < 0.01, `${h.id} width`);
  }
});

test('catalogEntries gives hardware as catalog entries, without model URLs', () => {
  const studs = catalogEntries(catalog, 'studs') as Array<{ id: string }>;
  assert.deepEqual(studs.map((s) => s.id), catalog.studs.map((s) => s.id));
  assert.ok(!('model_url' in studs[0]), 'kind and id name the model; the engine builds no URL');
  assert.throws(() => { (catalog.materials as unknown as unknown[]).push({}); }, 'catalog is frozen');
});
