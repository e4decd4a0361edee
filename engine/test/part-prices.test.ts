// partPrices(): statuses, requirements, line items, request validation; DFM and prices over real
// fixtures through analyze(). The quote object, its fulfillment and tax are the use cases'
// (adapters/usecases/test); the dfm and quote CLI commands: service/test/cli-quote-dfm.test.ts.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultCatalog } from '../src/catalog/index.ts';
import { designOf, hole, sheetPart, tubePart } from './helpers/examples.ts';
import { dfm, InvalidConfigurationError } from '../src/dfm/index.ts';
import { partPrices, priceItems, type PriceRequest } from '../src/pricing/index.ts';
import { analyze } from '../src/analyze.ts';
import type { Design } from '../src/contract.ts';

const catalog = defaultCatalog();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NOW = '2026-11-23T15:00:00.000Z';
const STEEL = 'mat_mild_steel_0_060in';
const TUBE = 'tub_4130_round_1_000od_0_065w';
const design = designOf([sheetPart({ instance_count: 2 }), tubePart()]);
const designs = { [design.id]: design };
const ctx = { now: NOW, dfmIds: ['dfm_test_0', 'dfm_test_1'] };
const price = (request: PriceRequest, ds: Record<string, Design> = designs) => partPrices(request, ds, catalog, ctx);
const full = { defaults: { material_id: STEEL, tube_profile_id: TUBE } };
const codesOf = (r: ReturnType<typeof dfm>): string[] => r.parts.flatMap((p) => p.issues.map((i) => i.code));

describe('partPrices()', () => {
  test('ready: items, line items per part, quantity options, what fulfillment reads', () => {
    const r = price({ items: [{ design_id: design.id, quantity: 5, configuration: full, client_reference_id: 'PO-7', quantity_options: [1, 5, 25, 25] }] });
    assert.equal(r.status, 'ready');
    assert.equal(r.catalog_version, catalog.version);
    assert.ok(!('id' in r) && !('object' in r) && !('created_at' in r) && !('fulfillment' in r) && !('tax' in r), 'no quote envelope: the use case makes the quote');
    const it = r.items[0];
    assert.equal(it.client_reference_id, 'PO-7');
    assert.equal(it.dfm.object, 'dfm_report');
    assert.equal(it.dfm.parts.length, 2, 'each item carries its full DFM report');
    assert.deepEqual(it.line_items.map((l) => [l.part_id, l.process, l.quantity]), [['prt_bracket', 'sheet_metal', 10], ['prt_tube', 'tube_laser', 5]]);
    assert.deepEqual(it.quantity_options.map((o) => o.quantity), [1, 5, 25], 'duplicates dropped');
    assert.equal(it.quantity_options[1].unit_amount_cents, it.unit_amount_cents);
    assert.equal(it.dfm.id, 'dfm_test_0');
    assert.equal(it.dfm.created_at, NOW);
    assert.equal(r.amount_subtotal_cents, it.amount_cents);
    assert.deepEqual(r.production, { bends: true, inserts: false, welds: false, finish_lead_time_days: 0, pieces: 15 });
    assert.deepEqual(r.shipment.map((s) => s.quantity), [10, 5]);
  });

  test('requires_input: unpriced item, requirements surfaced at item and quote level', () => {
    const r = price({ items: [{ design_id: design.id, quantity: 2, configuration: { defaults: { material_id: STEEL } } }] });
    assert.equal(r.status, 'requires_input');
    // not priced: integer zeros (existing clients read integers), the status says why
    assert.equal(r.items[0].unit_amount_cents, 0);
    assert.equal(r.items[0].amount_cents, 0);
    assert.deepEqual(r.items[0].line_items, []);
    assert.deepEqual(r.requirements.map((q) => q.field), ['tube_profile_id']);
    assert.equal(r.amount_subtotal_cents, 0);
  });

  test('blocked but fully specified items are still priced', () => {
    const d = designOf([sheetPart({ holes: [hole(1, 5, [40, 10], 20, { id: 1, distance: 2 })] })]);
    const r = price({ items: [{ design_id: d.id, quantity: 3, configuration: { defaults: { material_id: STEEL } } }] }, { [d.id]: d });
    assert.equal(r.status, 'blocked');
    assert.ok(r.items[0].unit_amount_cents! > 0);
    const ok = price({ items: [{ design_id: d.id, quantity: 3, configuration: { defaults: { material_id: STEEL }, accepted_risks: ['hole_too_close_to_bend'] } }] }, { [d.id]: d });
    assert.equal(ok.status, 'ready');
    assert.equal(ok.amount_subtotal_cents, r.amount_subtotal_cents);
  });

  test('several items add up; production warnings become manufacturing warnings', () => {
    const d2 = designOf([sheetPart({ id: 'prt_sharp', bends: [{ id: 1, angle_degrees: 90, radius_mm: 0, length_mm: 80, direction: 'up', flange_lengths_mm: [20, 70] }] })], 'des_two');
    const r = price({ items: [{ design_id: design.id, quantity: 2, configuration: full }, { design_id: 'des_two', quantity: 4, configuration: { defaults: { material_id: STEEL } } }] }, { ...designs, des_two: d2 });
    assert.equal(r.amount_subtotal_cents, r.items[0].amount_cents! + r.items[1].amount_cents!);
    assert.deepEqual(r.manufacturing_warnings.map((w) => [w.design_id, w.part_id, w.code]), [['des_two', 'prt_sharp', 'sharp_bend_radius_applied']]);
    assert.notEqual(r.items[0].dfm.id, r.items[1].dfm.id);
  });

  test('contract fields of an item: assembly_operations_amount_cents after amount_cents', () => {
    const d2 = designOf([sheetPart({ id: 'prt_other' })], 'des_second');
    const r = price({ items: [{ design_id: design.id, quantity: 2, configuration: full }, { design_id: 'des_second', quantity: 1, configuration: { defaults: { material_id: STEEL } } }] }, { ...designs, des_second: d2 });
    assert.deepEqual(Object.keys(r.items[0]), ['design_id', 'quantity', 'status', 'client_reference_id', 'unit_amount_cents', 'amount_cents', 'assembly_operations_amount_cents', 'quantity_options', 'dfm', 'requirements', 'line_items']);
    for (const it of r.items) {
      const k = Object.keys(it);
      assert.equal(k.indexOf('assembly_operations_amount_cents'), k.indexOf('amount_cents') + 1);
      assert.equal(it.assembly_operations_amount_cents, 0, 'no assembly operations');
    }
    const unpriced = price({ items: [{ design_id: design.id, quantity: 2, configuration: { defaults: { material_id: STEEL } } }] });
    assert.equal(unpriced.items[0].status, 'requires_input');
    // existing clients read these as integers (default 0) and refuse a null: an unpriced item says 0
    assert.deepEqual([unpriced.items[0].unit_amount_cents, unpriced.items[0].amount_cents, unpriced.items[0].assembly_operations_amount_cents], [0, 0, 0], 'an item without a price carries integer zeros');
  });

  test('a weld: assembly_operations_amount_cents is the assembly line items, part of amount_cents; totals unchanged', () => {
    const weld = { type: 'weld', method: 'mig', weld_length_mm: 150, part_instance_ids: ['prt_bracket_i0', 'prt_tube_i0'], weld_finish: 'rough', joint_access: 'open' };
    const welded = { ...full, assembly_operations: [weld, { ...weld, weld_length_mm: 40, part_instance_ids: ['prt_bracket_i0', 'prt_bracket_i1'] }] };
    for (const quantity of [1, 7]) {
      const r = price({ items: [{ design_id: design.id, quantity, configuration: welded }] });
      const it = r.items[0];
      const assemblyLines = it.line_items.filter((l) => l.process === 'assembly');
      assert.equal(assemblyLines.length, 1);
      const fromBreakdown = assemblyLines[0].breakdown.filter((b) => b.type === 'welding' || b.type === 'weld_setup').reduce((a, b) => a + b.amount_cents, 0);
      assert.ok(Number.isInteger(it.assembly_operations_amount_cents) && it.assembly_operations_amount_cents! > 0);
      assert.equal(it.assembly_operations_amount_cents, fromBreakdown);
      assert.equal(it.assembly_operations_amount_cents, assemblyLines[0].amount_cents);
      const parts = it.line_items.filter((l) => l.process !== 'assembly').reduce((a, l) => a + l.amount_cents, 0);
      assert.equal(it.amount_cents, parts + it.assembly_operations_amount_cents!, 'parts + assembly = the item');
      const plain = price({ items: [{ design_id: design.id, quantity, configuration: full }] });
      assert.equal(it.amount_cents! - it.assembly_operations_amount_cents!, plain.items[0].amount_cents, 'the welds add exactly their own amount');
      assert.equal(r.amount_subtotal_cents, it.amount_cents);
    }
  });

  test('priceItems(): items whose DFM report the caller already made price as partPrices() prices them', () => {
    const report = dfm(design, full, catalog, { id: 'dfm_test_0', now: NOW });
    const out = priceItems([{ design, quantity: 5, configuration: full, quantity_options: [1, 5], dfm: report }], catalog);
    const direct = price({ items: [{ design_id: design.id, quantity: 5, configuration: full, quantity_options: [1, 5] }] });
    assert.deepEqual(out, direct);
    assert.throws(() => priceItems([{ design, quantity: 0, dfm: report }], catalog), (e: unknown) => e instanceof InvalidConfigurationError && e.param === 'items[0].quantity');
  });

  // JSON as a caller may hand it to the engine: the request is checked, whatever its type says
  const invalid: Array<[string, object, string]> = [
    ['no items', { items: [] }, 'items'],
    ['quantity 0', { items: [{ design_id: design.id, quantity: 0, configuration: full }] }, 'items[0].quantity'],
    ['fractional quantity', { items: [{ design_id: design.id, quantity: 1.5, configuration: full }] }, 'items[0].quantity'],
    ['eleven quantity options', { items: [{ design_id: design.id, quantity: 1, configuration: full, quantity_options: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }] }, 'items[0].quantity_options'],
    ['bad quantity option', { items: [{ design_id: design.id, quantity: 1, configuration: full, quantity_options: [1, -2] }] }, 'items[0].quantity_options[1]'],
    ['unknown design', { items: [{ design_id: 'des_missing', quantity: 1 }] }, 'items[0].design_id'],
    ['unknown field', { items: [{ design_id: design.id, quantity: 1, colour: 'red' }] }, 'items[0].colour'],
    ['a destination (shipping is the service\'s)', { items: [{ design_id: design.id, quantity: 1, configuration: full }], ship_to: { state: 'TX', postal_code: '78701', country: 'US' } }, 'ship_to'],
    ['bad configuration inside an item', { items: [{ design_id: design.id, quantity: 1, configuration: { parts: 'all' } }] }, 'items[0].configuration.parts'],
  ];
  for (const [name, req, param] of invalid) {
    test(`invalid request: ${name}`, () => {
      assert.throws(() => price(req as PriceRequest), (e: unknown) => e instanceof InvalidConfigurationError && e.param === param);
    });
  }
});

describe('real fixtures through analyze()', () => {
  const load = async (rel: string): Promise<Design> => analyze(new Uint8Array(readFileSync(`${ROOT}/fixtures/${rel}`)), { fileName: rel, createdAt: NOW });
  const fctx = { id: 'dfm_fx', now: NOW };

  test('L bracket t2 r2 in 2 mm mild steel is ready and prices', async () => {
    const d = await load('sheet/l_t2_r2.step');
    const r = dfm(d, { defaults: { material_id: 'mat_mild_steel_2_0mm' } }, catalog, fctx);
    assert.equal(r.status, 'ready', JSON.stringify(r.parts.map((p) => p.issues)));
    assert.equal(dfm(d, { defaults: { material_id: 'mat_mild_steel_3_0mm' } }, catalog, fctx).parts[0].issues[0].code, 'thickness_mismatch');
    const q = price({ items: [{ design_id: d.id, quantity: 10, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }] }, { [d.id]: d });
    assert.equal(q.status, 'ready');
    assert.ok(q.items[0].line_items[0].breakdown.some((b) => b.type === 'bending'));
  });

  test('bend geometry from plain analyze(): the flange rule on real parts', async () => {
    const hat = await load('sheet/hat_t2_r2.4.step');
    for (const b of hat.parts[0].bends) {
      assert.ok(b.line_mm && b.flange_lengths_mm, `bend ${b.id}`);
      assert.ok(Math.min(...b.flange_lengths_mm) > 9.6, `hat flanges ${b.flange_lengths_mm}`);
    }
    assert.equal(dfm(hat, { defaults: { material_id: 'mat_mild_steel_2_0mm' } }, catalog, fctx).status, 'ready');
    // two 45 degree bends 4 mm apart: the flange between them is too short to sit on the die
    const offset = await load('sheet/offset_t1.5_r2_45.step');
    const r = dfm(offset, { defaults: { material_id: 'mat_mild_steel_1_5mm' } }, catalog, fctx);
    assert.deepEqual(codesOf(r), ['flange_too_short', 'flange_too_short']);
    assert.ok(Math.abs((r.parts[0].issues[0].details.flange_length_mm as number) - 4) < 0.05);
  });

  test('holes near a bend are a risk the customer may accept', async () => {
    const d = await load('sheet/l_t2_holes_near_bend.step');
    const cfg = { defaults: { material_id: 'mat_mild_steel_2_0mm' } };
    const r = dfm(d, cfg, catalog, fctx);
    assert.equal(r.status, 'blocked');
    assert.ok(r.parts[0].issues.length > 0 && r.parts[0].issues.every((i) => i.code === 'hole_too_close_to_bend' && i.severity === 'warning' && i.hole_id !== null));
    assert.equal(dfm(d, { ...cfg, accepted_risks: ['hole_too_close_to_bend'] }, catalog, fctx).status, 'ready');
  });

  test('6061-T6 takes a flat plate but not a bent part; 3 mm is not 0.125"', async () => {
    const plate = await load('sheet/plate_t3_holes_slot.step');
    assert.equal(dfm(plate, { defaults: { material_id: 'mat_5052_h32_3_0mm' } }, catalog, fctx).status, 'ready');
    // 3.0 vs 3.175 mm is outside +-max(0.05, 5 %): the only finding is the thickness
    assert.deepEqual(dfm(plate, { defaults: { material_id: 'mat_6061_t6_0_125in' } }, catalog, fctx).parts[0].issues.map((i) => i.code), ['thickness_mismatch']);
    const l = await load('sheet/l_t3_r1.5.step');
    const r = dfm(l, { defaults: { material_id: 'mat_6061_t6_0_125in' } }, catalog, fctx);
    assert.ok(r.parts[0].issues.some((i) => i.code === 'material_not_bendable'));
  });

  test('a metric tube matches its EN profile and no inch one', async () => {
    const d = await load('tubes/round-25x1.5-l400-slot.step');
    assert.equal(d.parts[0].suggested_process, 'tube_laser');
    assert.equal(dfm(d, { defaults: { tube_profile_id: 'tub_s235_round_25od_1_5w' } }, catalog, fctx).status, 'ready');
    const r = dfm(d, { defaults: { tube_profile_id: TUBE } }, catalog, fctx);
    assert.ok(r.parts[0].issues.some((i) => i.code === 'tube_profile_mismatch'));
    assert.equal(dfm(d, {}, catalog, fctx).requirements[0].field, 'tube_profile_id');
    const sq = await load('tubes/square-40x3-r4.5-l300.step');
    assert.equal(dfm(sq, { defaults: { tube_profile_id: 'tub_s235_square_40x40_3w' } }, catalog, fctx).status, 'ready');
    assert.ok(codesOf(dfm(sq, { defaults: { tube_profile_id: 'tub_s235_square_40x40_2w' } }, catalog, fctx)).includes('tube_profile_mismatch'), 'wall 2 is not 3');
  });
});
