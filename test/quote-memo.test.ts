// The in-process engine prices a quote's (items, design variants, catalog) once (issue 18 target
// 3): a later quote of the same reuses the kept prices' frozen parts under its own report ids and
// clock, and answers byte for byte what prices worked out afresh answer, also as a response writes
// them (jsonPayload, the kept texts spliced in). Part prices read no calendar: a quote on another day reuses them (its ship dates are the
// use case's fulfillment, adapters/usecases/test/fulfillment.test.ts).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Design, type PartPrices, type PriceRequest } from '@kerf/engine';
import { jsonPayload } from '@kerf/usecases';
import { LocalEngine } from '@kerf/service';
import { fixtureBytes } from './helpers/fixtures.ts';

const NOW = '2026-11-26T08:00:00.000Z';
const NEXT_DAY = '2026-11-27T00:00:00.000Z';
const VARIANT = 'des_memo\u0000';

const request = (quantity = 10): PriceRequest => ({
  items: [{ design_id: 'des_memo', quantity, quantity_options: [1, 10, 100], configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }],
});
const context = (id: string, now: string, keyed: boolean) => ({ now, dfmIds: [`dfm_${id}_0`], ...(keyed ? { dfmKeys: [VARIANT] } : {}) });

describe('part prices: worked out once per items, design variants and catalog', () => {
  let designs: Record<string, Design>;
  const memo = new LocalEngine();
  /** The memo engine's prices and, for the same report ids and clock, ones worked out afresh (no variant keys: nothing kept). */
  const both = async (req: PriceRequest, id: string, now: string): Promise<{ kept: PartPrices; fresh: PartPrices }> => ({
    kept: await memo.partPrices(req, designs, context(id, now, true)),
    fresh: await new LocalEngine().partPrices(req, designs, context(id, now, false)),
  });

  before(async () => {
    const design = await analyze(fixtureBytes(new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname), { fileName: 'l.step', createdAt: NOW });
    designs = { des_memo: { ...design, id: 'des_memo' } };
  });

  it('a second quote of the same items shares the first one\'s prices and answers the same bytes, another day too', async () => {
    const first = await both(request(), 'quo_1', NOW);
    const second = await both(request(), 'quo_2', NEXT_DAY);
    assert.equal(JSON.stringify(first.kept), JSON.stringify(first.fresh));
    assert.equal(JSON.stringify(second.kept), JSON.stringify(second.fresh));
    // a response is written by jsonPayload: the kept texts spliced in
    assert.equal(String(jsonPayload(second.kept)), JSON.stringify(second.fresh));
    assert.equal(second.kept.items[0].dfm.id, 'dfm_quo_2_0');
    assert.equal(second.kept.items[0].dfm.created_at, NEXT_DAY);
    assert.strictEqual(second.kept.items[0].line_items, first.kept.items[0].line_items, 'the second quote was not priced again');
    assert.strictEqual(second.kept.items[0].quantity_options, first.kept.items[0].quantity_options);
    assert.strictEqual(second.kept.shipment, first.kept.shipment);
    assert.ok(Object.isFrozen(first.kept.items[0].line_items) && Object.isFrozen(first.kept.shipment), 'shared parts cannot be changed by one quote');
    assert.ok(!Object.isFrozen(second.kept) && !Object.isFrozen(second.kept.items[0]), 'the quote\'s own envelope is its own');
  });

  it('another quantity is priced afresh, and answers what fresh prices answer', async () => {
    const ten = await both(request(), 'quo_a', NOW);
    const more = await both(request(20), 'quo_c', NOW);
    assert.equal(JSON.stringify(more.kept), JSON.stringify(more.fresh));
    assert.equal(String(jsonPayload(more.kept)), JSON.stringify(more.fresh));
    assert.notDeepEqual(more.kept.items[0].line_items, ten.kept.items[0].line_items);
  });

  it('without variant keys nothing is kept; a request the engine refuses keeps nothing and is refused again', async () => {
    const engine = new LocalEngine();
    const a = await engine.partPrices(request(), designs, context('quo_x', NOW, false));
    const b = await engine.partPrices(request(), designs, context('quo_y', NOW, false));
    assert.notStrictEqual(b.items[0].line_items, a.items[0].line_items);
    await engine.partPrices(request(), designs, context('quo_z', NOW, true));
    // JSON writes it as the request above, but the engine refuses the unknown field, every time
    const undefinedField = { items: [{ ...request().items[0], unknown_field: undefined }] };
    for (let i = 0; i < 2; i++) {
      await assert.rejects(engine.partPrices(undefinedField, designs, context(`quo_bad${i}`, NOW, true)), (err: { code?: string }) => err.code === 'invalid_configuration');
      await assert.rejects(engine.partPrices(request(0), designs, context(`quo_zero${i}`, NOW, true)), (err: { code?: string }) => err.code === 'invalid_configuration');
    }
  });
});
