// Material priced from the quote's nest (engine/src/pricing/nest-material.ts, docs/nesting.md): the
// line's `nest`, never above the bounding-box price, cheaper per piece as quantities fill sheets,
// one nest per material, quantity options nested each, reuse through the caller's memo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCatalog, indexCatalog } from '../src/catalog/index.ts';
import { designOf, sheetPart } from './helpers/examples.ts';
import { partPrices, pricePart, type PriceRequest, type LineItem } from '../src/pricing/index.ts';
import type { NestRequest, NestResult } from '../src/nest/index.ts';
import type { Design } from '../src/contract.ts';

const catalog = defaultCatalog();
const ix = indexCatalog(catalog);
const NOW = '2026-11-23T15:00:00.000Z';
const STEEL = 'mat_mild_steel_0_060in';
const ALU = 'mat_5052_h32_0_063in';
const bracket = sheetPart();
const design = designOf([bracket]);
const materialOf = (l: LineItem): number => l.breakdown.find((b) => b.type === 'material')!.unit_amount_cents;
const price = (request: PriceRequest, ds: Record<string, Design>, nestMemo?: (r: NestRequest, make: () => NestResult) => NestResult) =>
  partPrices(request, ds, catalog, { now: NOW, dfmIds: request.items.map((_, i) => `dfm_${i}`), ...(nestMemo ? { nest: nestMemo } : {}) });

/** The bounding-box material price of one piece (what a line cost before nesting). */
const boxMaterial = (q: number, materialId = STEEL): number => pricePart({ part: bracket, stock: { kind: 'sheet', material: ix.materials.get(materialId)! }, config: null, finish: null, color: null, quantity: q }, catalog, ix)
  .breakdown.find((b) => b.type === 'material')!.unit_amount_cents;

test('a sheet line is priced from the nest: utilisation shown, never above its bounding box', () => {
  const nests: Array<NonNullable<LineItem['nest']>> = [];
  for (const q of [1, 10, 100]) {
    const r = price({ items: [{ design_id: design.id, quantity: q, configuration: { defaults: { material_id: STEEL } } }] }, { [design.id]: design });
    const line = r.items[0].line_items[0];
    assert.ok(line.nest, 'the line shows its nest');
    assert.ok(line.nest.utilization > 0 && line.nest.utilization <= 1);
    assert.equal(line.nest.sheet_length_mm, 1117.6);
    assert.ok(materialOf(line) <= boxMaterial(q), `q ${q}: nest ${materialOf(line)} vs box ${boxMaterial(q)} cents`);
    nests.push(line.nest);
  }
  // one bracket uses a corner of a sheet; 100 fill a whole sheet and part of another
  assert.ok(nests[0].sheets < 0.05 && nests[1].sheets < nests[2].sheets);
  assert.ok(nests[2].sheets > 1 && nests[2].sheets < 2, `${nests[2].sheets} sheets for 100`);
  assert.ok(nests[2].utilization > 0.6, `utilisation ${nests[2].utilization}`);
});

test('quantity options are nested each: the option at 100 prices its material from a nest of 100', () => {
  const r = price({ items: [{ design_id: design.id, quantity: 1, quantity_options: [100], configuration: { defaults: { material_id: STEEL } } }] }, { [design.id]: design });
  const at100 = price({ items: [{ design_id: design.id, quantity: 100, configuration: { defaults: { material_id: STEEL } } }] }, { [design.id]: design });
  assert.equal(r.items[0].quantity_options[0].unit_amount_cents, at100.items[0].unit_amount_cents);
});

test('two materials are nested apart: each line\'s nest holds only its material\'s pieces', () => {
  const a = sheetPart({ id: 'prt_a' }), b = sheetPart({ id: 'prt_b' });
  const two = designOf([a, b], 'des_two');
  const cfg = { defaults: { material_id: STEEL }, parts: [{ part_id: 'prt_b', material_id: ALU }] };
  const r = price({ items: [{ design_id: two.id, quantity: 30, configuration: cfg }] }, { [two.id]: two });
  const [la, lb] = r.items[0].line_items;
  assert.equal(la.material_id, STEEL);
  assert.equal(lb.material_id, ALU);
  // each nest is the nest of 30 brackets alone
  const alone = price({ items: [{ design_id: design.id, quantity: 30, configuration: { defaults: { material_id: STEEL } } }] }, { [design.id]: design });
  assert.deepEqual(la.nest, alone.items[0].line_items[0].nest);
  assert.deepEqual(lb.nest, la.nest);
  // and one material of 60 brackets nests both parts in one: a different nest than 30
  const same = price({ items: [{ design_id: two.id, quantity: 30, configuration: { defaults: { material_id: STEEL } } }] }, { [two.id]: two });
  assert.notDeepEqual(same.items[0].line_items[0].nest, la.nest);
});

test('items of one quote share a material\'s nest; the same request gives the same prices', () => {
  const d2 = designOf([sheetPart({ id: 'prt_other' })], 'des_other');
  const req: PriceRequest = { items: [{ design_id: design.id, quantity: 7, configuration: { defaults: { material_id: STEEL } } }, { design_id: d2.id, quantity: 5, configuration: { defaults: { material_id: STEEL } } }] };
  const r1 = price(req, { [design.id]: design, [d2.id]: d2 }), r2 = price(req, { [design.id]: design, [d2.id]: d2 });
  assert.deepEqual(r1, r2);
  assert.deepEqual(r1.items[0].line_items[0].nest, r1.items[1].line_items[0].nest);
});

test('a caller\'s memo reuses the nest of the same flats and quantities', () => {
  const kept = new Map<string, NestResult>();
  let made = 0;
  const memo = (r: NestRequest, make: () => NestResult): NestResult => {
    const key = JSON.stringify(r);
    if (!kept.has(key)) { made++; kept.set(key, make()); }
    return kept.get(key)!;
  };
  const req: PriceRequest = { items: [{ design_id: design.id, quantity: 12, configuration: { defaults: { material_id: STEEL } } }] };
  const a = price(req, { [design.id]: design }, memo);
  const b = price(req, { [design.id]: design }, memo);
  assert.equal(made, 1);
  assert.deepEqual(a, b);
});
