import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CATALOG_KINDS, catalogEntries, defaultCatalog, hardwareModelGlb, indexCatalog, type CatalogKind } from '../src/catalog/index.ts';
import { interpolateKFactor } from '../src/sheet/kfactor.ts';
import { hardwareHoleFit, tapHoleFit } from '../src/dfm/hole-checks.ts';
import { pricePart } from '../src/pricing/part-price.ts';
import { hole, sheetPart } from './helpers/examples.ts';

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
  // every metric row against the maker's tables (docs/dfm-rules.md "Where the self-clinching figures
  // come from"): [min sheet, mounting hole, centre-to-edge] per thread
  const figures = (items: Array<{ size: string; thread_standard: string; min_sheet_thickness_mm: number; mounting_hole_mm: number; min_center_to_edge_mm: number }>): Record<string, number[]> =>
    Object.fromEntries(items.filter((h) => h.thread_standard === 'metric').map((h) => [h.size, [h.min_sheet_thickness_mm, h.mounting_hole_mm, h.min_center_to_edge_mm]]));
  assert.deepEqual(figures(catalog.studs), { M3: [1.0, 3.0, 5.6], M4: [1.0, 4.0, 7.2], M5: [1.0, 5.0, 7.2], M6: [1.6, 6.0, 7.9], M8: [2.4, 8.0, 9.6] });
  assert.deepEqual(figures(catalog.nuts), { M3: [0.8, 4.22, 4.8], M4: [0.8, 5.41, 6.9], M5: [0.8, 6.35, 7.1], M6: [0.92, 8.75, 8.6], M8: [1.4, 10.5, 9.7] });
  const standoffs = figures(catalog.standoffs.filter((s) => s.thru)), blind = figures(catalog.standoffs.filter((s) => !s.thru));
  assert.deepEqual(standoffs, { M3: [1.02, 4.22, 6.0], M4: [1.27, 7.14, 8.0], M5: [1.27, 7.14, 8.0] });
  // a blind standoff has the body, hole and edge distance of the thru-threaded one of its thread
  assert.deepEqual(blind, { M3: standoffs.M3, M4: standoffs.M4 });
  // unified nuts in the inch figures of the table: 4-40 .166" hole, .030" sheet, .19" to the edge; 1/4-20 .344", .047", .34"
  assert.deepEqual(['nut_cls_4_40', 'nut_cls_1_4_20'].map((id) => { const n = ix.nuts.get(id)!; return [n.mounting_hole_mm, n.min_sheet_thickness_mm, n.min_center_to_edge_mm]; }),
    [[4.216, 0.762, 4.826], [8.738, 1.194, 8.636]]);
  assert.deepEqual([ix.standoffs.get('sto_so_6_32_0_250in')!.mounting_hole_mm, ix.standoffs.get('sto_so_4_40_0_250in')!.min_center_to_edge_mm], [5.41, 5.842]);
  // lengths are the series' length codes: FH and SO have 15 and 16 mm respectively, never the other
  const lengths = (items: Array<{ series: string; size: string; length_mm: number }>, series: string, size: string): number[] =>
    items.filter((h) => h.series === series && h.size === size).map((h) => h.length_mm);
  assert.deepEqual([lengths(catalog.studs, 'FH', 'M4'), lengths(catalog.studs, 'FH', 'M6'), lengths(catalog.standoffs, 'SO', 'M3'), lengths(catalog.standoffs, 'SO', 'M4'), lengths(catalog.standoffs, 'BSO', 'M3')],
    [[10, 15], [15, 25], [6, 10, 16], [10, 16], [6, 8, 10, 12]]);
  // the author of a real enclosure fitted BSO-M3-8/-10, S-M4-1 and FH-M3-12 and cut their holes in the flat
  // DXFs (fixtures/real/printalyzer-enclosure-truth.json): each is the catalog's mounting hole of that part
  const pz = JSON.parse(readFileSync(new URL('../../fixtures/real/printalyzer-enclosure-truth.json', import.meta.url), 'utf8')) as { sheet_parts: Array<{ what: string; circle_diameters_mm: number[] }> };
  const holes = (what: string) => pz.sheet_parts.find((p) => p.what === what)!.circle_diameters_mm;
  const count = (what: string, d: number) => holes(what).filter((x) => x === d).length;
  assert.deepEqual([count('base', ix.standoffs.get('sto_bso_m3_8')!.mounting_hole_mm), count('base', ix.nuts.get('nut_cls_m4')!.mounting_hole_mm), count('base', ix.studs.get('std_fh_m3_12')!.mounting_hole_mm), count('cover', ix.standoffs.get('sto_bso_m3_10')!.mounting_hole_mm)],
    [2, 6, 1, 4]);
  // the SO/BSO barrel passes the mounting hole; the hex head is the published H
  const so4 = ix.standoffs.get('sto_bso_m4_10')!;
  assert.deepEqual([so4.geometry.body_diameter_mm, so4.geometry.head_diameter_mm], [7.12, 7.9]);
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

// docs/api.md "Catalog entries": the fields existing clients read, with their types
type FieldCheck = (v: unknown) => boolean;
const str: FieldCheck = (v) => typeof v === 'string' && v.length > 0;
const num: FieldCheck = (v) => typeof v === 'number' && Number.isFinite(v);
const int: FieldCheck = (v) => Number.isInteger(v);
const bool: FieldCheck = (v) => typeof v === 'boolean';
const numOrNull: FieldCheck = (v) => v === null || num(v);
const oneOf = (...values: string[]): FieldCheck => (v) => values.includes(v as string);
const listOf = (each: FieldCheck): FieldCheck => (v) => Array.isArray(v) && v.length > 0 && v.every(each);
const obj: FieldCheck = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const hardware = { id: str, size: str, thread_standard: oneOf('metric', 'unified'), hole_diameter_mm: (v: unknown) => num(v) && (v as number) > 0 };
const CONTRACT_FIELDS: Record<CatalogKind, Record<string, FieldCheck>> = {
  materials: { id: str, material: str, type: str, thickness_mm: num, thickness_in: num, display_thickness: str, description: str, bendable: bool, weight_g_per_cm2: num, k_factor: numOrNull, min_bend_radius_mm: num },
  'tube-profiles': { id: str, material: str, type: str, shape: oneOf('round', 'square', 'rectangular'), display_name: str, outer_width_mm: numOrNull, outer_height_mm: numOrNull, outer_diameter_mm: numOrNull, wall_thickness_mm: num, default_stock_length_mm: num },
  finishes: { id: str, name: str, slug: str, description: str, category: str, type: str, processes: listOf(oneOf('sheet_metal', 'tube_laser')), base_price_cents: int, price_per_cm2_cents: (v) => num(v) && (v as number) >= 0 },
  'powder-coat-colors': { id: str, name: str, slug: str, hex_color: (v) => typeof v === 'string' && /^#[0-9A-F]{6}$/i.test(v), price_multiplier: num, available: bool, viewer: obj },
  taps: hardware, studs: hardware, nuts: hardware, standoffs: hardware,
};

test('every entry of every catalog has the contract fields with their types and enums', () => {
  assert.deepEqual(Object.keys(CONTRACT_FIELDS).sort(), [...CATALOG_KINDS].sort(), 'every catalog is checked');
  for (const kind of CATALOG_KINDS) {
    const entries = catalogEntries(catalog, kind) as Array<Record<string, unknown>>;
    assert.ok(entries.length > 0, kind);
    for (const e of entries) {
      for (const [field, ok] of Object.entries(CONTRACT_FIELDS[kind])) {
        assert.ok(field in e, `${kind} ${e.id}: no ${field}`);
        assert.ok(ok(e[field]), `${kind} ${e.id}: ${field} = ${JSON.stringify(e[field])}`);
      }
    }
  }
});

test('the added catalog fields agree with what the engine already used', () => {
  for (const m of catalog.materials) {
    assert.equal(m.k_factor, Number(interpolateKFactor(m.k_factor_table, m.default_bend_radius_mm / m.thickness_mm).toFixed(4)), m.id);
    assert.ok(m.k_factor > 0 && m.k_factor <= 0.5, m.id);
    assert.ok(m.description.startsWith(m.material), m.id);
  }
  assert.equal(indexCatalog(catalog).materials.get('mat_mild_steel_2_0mm')!.description, 'Mild Steel (A1011 CS), 2.0 mm (0.079 in)');
  const slugs = new Set<string>();
  for (const f of catalog.finishes) {
    assert.match(f.slug, /^[a-z0-9]+(-[a-z0-9]+)*$/, f.id);
    assert.ok(!slugs.has(f.slug), `duplicate slug ${f.slug}`);
    slugs.add(f.slug);
    assert.ok(['none', 'mechanical', 'coating', 'anodizing', 'plating'].includes(f.category), f.id);
  }
  assert.equal(indexCatalog(catalog).finishes.get('fin_powder_coat')!.slug, 'powder-coat');
  for (const c of catalog.powder_coat_colors) assert.match(c.slug, /^ral-\d{4}-[a-z0-9-]+$/, c.id);
  // sizes as clients name them
  const ix = indexCatalog(catalog);
  assert.deepEqual(['tap_m4x0_7', 'tap_8_32', 'tap_1_4_20', 'tap_10_32', 'tap_m2_5x0_45'].map((id) => ix.taps.get(id)!.size), ['M4', '#8-32', '1/4-20', '#10-32', 'M2.5']);
  assert.deepEqual([ix.studs.get('std_fh_m4_10')!.size, ix.nuts.get('nut_cls_8_32')!.size, ix.standoffs.get('sto_so_6_32_0_250in')!.size], ['M4', '#8-32', '#6-32']);
});

test('hardware hole_diameter_mm is the hole the DFM hole checks accept for the item', () => {
  const at = (d: number) => hole(1, d, [40, 40], 30);
  const ctx = { part: sheetPart({ holes: [at(3)] }), material: indexCatalog(catalog).materials.get('mat_mild_steel_0_060in')!, thickness: 1.524 };
  for (const t of catalog.taps) {
    assert.equal(t.hole_diameter_mm, t.tap_drill_mm, t.id);
    assert.equal(t.thread_standard, t.standard, t.id);
    assert.deepEqual(tapHoleFit(t, at(t.hole_diameter_mm)).map((f) => f.code), [], t.id);
  }
  for (const h of [...catalog.studs, ...catalog.nuts, ...catalog.standoffs]) {
    assert.equal(h.hole_diameter_mm, h.mounting_hole_mm, h.id);
    assert.equal(h.thread_standard, h.standard, h.id);
    assert.deepEqual(hardwareHoleFit(h, at(h.hole_diameter_mm), ctx).map((f) => f.code), [], h.id);
  }
});

test('finish prices are the entries\' base_price_cents + area x price_per_cm2_cents (times the colour multiplier)', () => {
  const ix = indexCatalog(catalog);
  const part = sheetPart();
  const stock = { kind: 'sheet' as const, material: ix.materials.get('mat_mild_steel_0_060in')! };
  for (const f of catalog.finishes.filter((x) => x.type !== 'none')) {
    const color = f.requires_color ? ix.powder_coat_colors.get('pcc_ral_3020_traffic_red')! : null;
    const priced = pricePart({ part, stock, config: null, finish: f, color, quantity: 1 }, catalog, ix);
    const finish = priced.breakdown.find((b) => b.type === 'finish')!;
    assert.equal(finish.unit_amount_cents, Math.round((f.base_price_cents + part.surface_area_cm2 * f.price_per_cm2_cents) * (color?.price_multiplier ?? 1)), f.id);
  }
});
