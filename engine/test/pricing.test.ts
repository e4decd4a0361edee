// Pricing: property tests (fast-check) over generated parts and configurations, and what the prices
// tell fulfillment. Shipping, freight, zones, tax and business days are the use cases'
// (adapters/usecases/test/fulfillment.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defaultCatalog, indexCatalog } from '../src/catalog/index.ts';
import { bend, designOf, hole, sheetPart, tubePart } from './helpers/examples.ts';
import { partPrices, pricePart, volumeMultiplier, type PartPrices } from '../src/pricing/index.ts';
import type { Design, Part } from '../src/contract.ts';

const catalog = defaultCatalog();
const ix = indexCatalog(catalog);
const NOW = '2026-11-23T15:00:00.000Z'; // a Monday
const bendableSheets = catalog.materials.filter((m) => m.bendable);

/** A generated, DFM-clean sheet part and its material. */
const sheetCase = fc.record({
  materialIndex: fc.integer({ min: 0, max: bendableSheets.length - 1 }),
  length: fc.double({ min: 40, max: 880, noNaN: true }), // the deburr line takes 900 mm
  width: fc.double({ min: 40, max: 700, noNaN: true }),
  bends: fc.integer({ min: 0, max: 4 }),
  holes: fc.integer({ min: 0, max: 6 }),
  instances: fc.integer({ min: 1, max: 4 }),
  finish: fc.constantFrom(null, 'fin_deburr', 'fin_powder_coat'),
  studs: fc.boolean(),
}).map((c) => {
  const m = bendableSheets[c.materialIndex];
  const t = m.thickness_mm;
  // copper and brass are not powder coated (a DFM finding, not what this generator is for)
  const finish = c.finish === 'fin_powder_coat' && (m.type === 'copper' || m.type === 'brass') ? 'fin_deburr' : c.finish;
  const [L, W] = c.length >= c.width ? [c.length, c.width] : [c.width, c.length];
  // hole 1 is the CLS M6 nut hole when hardware is on (needs t >= 0.92 mm)
  const withNut = c.studs && c.holes > 0 && t >= 0.92;
  const holes = Array.from({ length: c.holes }, (_, i) => hole(i + 1, i === 0 && withNut ? 8.75 : 8, [20 + i * 5, W / 2], 10));
  const bends = Array.from({ length: c.bends }, (_, i) => bend(i + 1, { radius_mm: m.default_bend_radius_mm, length_mm: Math.min(W, m.max_bend_length_mm), flange_lengths_mm: [50, 50] }));
  const part = sheetPart({
    id: 'prt_gen', instance_count: c.instances, detected_thickness_mm: t, holes, hole_count: holes.length, bends, bend_count: bends.length,
    volume_mm3: L * W * t, surface_area_cm2: (2 * L * W) / 100,
    formed_dimensions: { length_mm: L, width_mm: W, height_mm: c.bends ? 40 : t },
    flat_pattern: { k_factor: 0.4, length_mm: L, width_mm: W, area_mm2: L * W, cut_length_mm: 2 * (L + W) + c.holes * Math.PI * 8, pierce_count: c.holes },
  });
  const configuration = {
    defaults: { material_id: m.id, ...(finish ? { finish_id: finish } : {}), ...(finish === 'fin_powder_coat' ? { powder_coat_color_id: 'pcc_ral_7016_anthracite_grey' } : {}) },
    parts: withNut ? [{ part_id: 'prt_gen', nuts: [{ hole_id: 1, nut_id: 'nut_clss_m6', side: 'top' }] }] : [],
  };
  return { design: designOf([part], 'des_gen'), configuration };
});

const ctx = { now: NOW, dfmIds: ['dfm_p0'] };
const q = (design: Design, configuration: Record<string, unknown>, quantity: number, extra: { quantity_options?: number[] } = {}): PartPrices =>
  partPrices({ items: [{ design_id: design.id, quantity, configuration, ...extra }] }, { [design.id]: design }, catalog, ctx);

const FC = { numRuns: 60, seed: 20261122 };

test('property: unit price never rises with quantity', () => {
  fc.assert(fc.property(sheetCase, fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 2000 }), ({ design, configuration }, a, b) => {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    const r = q(design, configuration, lo, { quantity_options: [lo, hi] });
    const [o1, o2] = r.items[0].quantity_options.length === 2 ? r.items[0].quantity_options : [r.items[0].quantity_options[0], r.items[0].quantity_options[0]];
    assert.ok(o2.unit_amount_cents <= o1.unit_amount_cents, `${lo}: ${o1.unit_amount_cents}, ${hi}: ${o2.unit_amount_cents}`);
  }), FC);
});

test('property: line items add up to the item, items to the subtotal; all integer cents', () => {
  fc.assert(fc.property(sheetCase, fc.integer({ min: 1, max: 500 }), ({ design, configuration }, n) => {
    const r = q(design, configuration, n, { quantity_options: [1, 10, 100] });
    const item = r.items[0];
    assert.equal(item.status, 'ready', JSON.stringify(item.dfm.parts[0].issues));
    const ints: number[] = [r.amount_subtotal_cents, item.unit_amount_cents!, item.amount_cents!];
    for (const li of item.line_items) {
      assert.equal(li.breakdown.reduce((a, b) => a + b.amount_cents, 0), li.amount_cents, 'breakdown adds up');
      assert.equal(li.breakdown.reduce((a, b) => a + b.unit_amount_cents, 0), li.unit_amount_cents, 'breakdown units add up');
      assert.equal(li.unit_amount_cents * li.quantity, li.amount_cents);
      assert.equal(li.quantity, n * design.parts[0].instance_count);
      ints.push(li.unit_amount_cents, li.amount_cents, ...li.breakdown.flatMap((b) => [b.unit_amount_cents, b.amount_cents]));
    }
    assert.equal(item.line_items.reduce((a, l) => a + l.amount_cents, 0), item.amount_cents);
    assert.equal(item.unit_amount_cents! * n, item.amount_cents);
    assert.equal(r.amount_subtotal_cents, r.items.reduce((a, i) => a + i.amount_cents!, 0));
    for (const o of item.quantity_options) ints.push(o.unit_amount_cents, o.amount_cents);
    for (const x of ints) assert.ok(Number.isSafeInteger(x) && x >= 0, `integer cents: ${x}`);
    // what shipping starts from: one shipment line per part line, its pieces and a positive mass
    assert.deepEqual(r.shipment.map((s) => s.quantity), item.line_items.map((l) => l.quantity));
    assert.ok(r.shipment.every((s) => s.mass_kg > 0));
    assert.equal(r.production.pieces, n * design.parts[0].instance_count);
  }), FC);
});

test('property: same input, same quote', () => {
  fc.assert(fc.property(sheetCase, fc.integer({ min: 1, max: 300 }), ({ design, configuration }, n) => {
    assert.deepEqual(q(design, configuration, n, { quantity_options: [1, 5, 50] }), q(structuredClone(design), structuredClone(configuration), n, { quantity_options: [1, 5, 50] }));
  }), { ...FC, numRuns: 20 });
});

test('breakdown follows the drivers: thicker costs more, bends and hardware add, colour multiplies', () => {
  const base = (material: string, part: Part = sheetPart(), extra: Record<string, unknown> = {}): number => {
    const r = q(designOf([part]), { defaults: { material_id: material, ...extra } }, 10);
    return r.items[0].unit_amount_cents!;
  };
  const thin = q(designOf([sheetPart()]), { defaults: { material_id: 'mat_mild_steel_0_060in' } }, 10).items[0].line_items[0].breakdown.find((b) => b.type === 'material')!.unit_amount_cents;
  const thick = q(designOf([sheetPart({ detected_thickness_mm: 3.0, bends: [bend(1, { radius_mm: 3 }), bend(2, { radius_mm: 3 })] })]), { defaults: { material_id: 'mat_mild_steel_3_0mm' } }, 10).items[0].line_items[0].breakdown.find((b) => b.type === 'material')!.unit_amount_cents;
  assert.ok(thick > thin, `material ${thin} -> ${thick}`);
  const noBends = base('mat_mild_steel_0_060in', sheetPart({ bends: [], bend_count: 0 }));
  assert.ok(base('mat_mild_steel_0_060in') > noBends, 'bends add cost');
  const black = base('mat_mild_steel_0_060in', sheetPart(), { powder_coat_color_id: 'pcc_ral_9005_jet_black' });
  const yellow = base('mat_mild_steel_0_060in', sheetPart(), { powder_coat_color_id: 'pcc_ral_1023_traffic_yellow' });
  assert.ok(yellow > black, 'colour multiplier 1.15 > 1.0');
  // heavier parts cost more per bend
  const m = ix.materials.get('mat_mild_steel_0_060in')!;
  const bendCost = (L: number): number => pricePart({ part: sheetPart({ volume_mm3: L * 80 * 1.524 }), stock: { kind: 'sheet', material: m }, config: null, finish: null, color: null, quantity: 10 }, catalog, ix).breakdown.find((b) => b.type === 'bending')!.unit_amount_cents;
  assert.ok(bendCost(2000) > bendCost(100));
  // set-up is amortised
  const setup = (n: number): number => pricePart({ part: sheetPart(), stock: { kind: 'sheet', material: m }, config: null, finish: null, color: null, quantity: n }, catalog, ix).breakdown.find((b) => b.type === 'cut_setup')!.unit_amount_cents;
  assert.equal(setup(1), catalog.rates.cut_setup_cents);
  assert.equal(setup(1000), Math.ceil(catalog.rates.cut_setup_cents / 1000));
  assert.equal(volumeMultiplier(catalog.rates, 1), 1);
  assert.ok(volumeMultiplier(catalog.rates, 1000) < volumeMultiplier(catalog.rates, 10));
});

test('minimum line amount applies as its own breakdown entry', () => {
  const tiny = sheetPart({ bends: [], bend_count: 0, holes: [], volume_mm3: 20 * 20 * 1.524, flat_pattern: { k_factor: 0.4, length_mm: 20, width_mm: 20, area_mm2: 400, cut_length_mm: 80, pierce_count: 0 } });
  const li = q(designOf([tiny]), { defaults: { material_id: 'mat_mild_steel_0_060in' } }, 1).items[0].line_items[0];
  assert.equal(li.amount_cents, catalog.rates.min_line_amount_cents);
  assert.equal(li.breakdown.at(-1)!.type, 'minimum_charge');
  const many = q(designOf([tiny]), { defaults: { material_id: 'mat_mild_steel_0_060in' } }, 1000).items[0].line_items[0];
  assert.ok(!many.breakdown.some((b) => b.type === 'minimum_charge'), 'no minimum once the line is above it');
});

test('welding is its own assembly line item', () => {
  const d = designOf([sheetPart({ instance_count: 2 }), tubePart()]);
  const cfg = { defaults: { material_id: 'mat_mild_steel_0_060in', tube_profile_id: 'tub_4130_round_1_000od_0_065w' },
    assembly_operations: [{ type: 'weld', method: 'tig', weld_length_mm: 120, part_instance_ids: ['prt_bracket_i0', 'prt_tube_i0'], weld_finish: 'fine', joint_access: 'tight' }] };
  const r = q(d, cfg, 3);
  const weld = r.items[0].line_items.find((l) => l.process === 'assembly')!;
  assert.equal(weld.part_id, null);
  assert.equal(weld.quantity, 3);
  assert.deepEqual(weld.breakdown.map((b) => b.type), ['welding', 'weld_setup']);
  const rates = catalog.rates;
  assert.equal(weld.breakdown[0].unit_amount_cents, Math.round(120 * (rates.weld_cents_per_mm.tig * rates.weld_access_multiplier.tight + rates.weld_finish_cents_per_mm.fine)));
  assert.equal(r.items[0].line_items.find((l) => l.part_id === 'prt_bracket')!.quantity, 6, 'quantity x instance count');
  assert.equal(r.production.welds, true, 'welding is production work of its own (it adds days)');
  assert.equal(q(d, { defaults: cfg.defaults }, 3).production.welds, false);
});

test('what fulfillment reads: the work, the finishes\' lead time and each part line\'s formed size', () => {
  const bent = q(designOf([sheetPart()]), { defaults: { material_id: 'mat_mild_steel_0_060in', finish_id: 'fin_powder_coat', powder_coat_color_id: 'pcc_ral_9005_jet_black' } }, 4);
  assert.equal(bent.production.bends, true);
  assert.equal(bent.production.finish_lead_time_days, ix.finishes.get('fin_powder_coat')!.lead_time_days);
  const part = sheetPart();
  assert.deepEqual(bent.shipment[0].dimensions_mm, [part.formed_dimensions.length_mm, part.formed_dimensions.width_mm, part.formed_dimensions.height_mm]);
  assert.deepEqual(bent.terms, { valid_for_days: catalog.rates.quote_validity_days, expedite_fraction_per_day: catalog.rates.expedite_fraction_per_day });
  assert.equal(bent.catalog_version, catalog.version);
  // an item that cannot be priced is neither made nor shipped
  const unpriced = q(designOf([sheetPart()]), {}, 4);
  // (its amounts are integer 0, not null: the live API's client reads them as ints; docs/api.md)
  assert.equal(unpriced.items[0].status, 'requires_input');
  assert.equal(unpriced.items[0].amount_cents, 0);
  assert.deepEqual([unpriced.shipment, unpriced.production.pieces], [[], 0]);
});
