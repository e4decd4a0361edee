// The in-process engine prices a (request, design variants, catalog, UTC day) once (issue 18 target
// 3): a later quote of the same reuses the kept quote's frozen parts under its own ids and clock, and
// answers byte for byte what a quote worked out afresh answers, also as jsonText writes it.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Design } from '@kerf/engine';
import { jsonText } from '@kerf/store';
import { LocalEngine } from '@kerf/service';
import { fixtureBytes } from './helpers/fixtures.ts';

const NOW = '2026-11-26T08:00:00.000Z';
const LATER_SAME_DAY = '2026-11-26T23:59:59.999Z';
/** The Friday after NOW's Thursday: the ship dates, business days after the quote's day, move. */
const NEXT_DAY = '2026-11-27T00:00:00.000Z';
const VARIANT = 'des_memo\u0000';
const SHIP_TO = { name: 'A', country: 'US', state: 'CA', postal_code: '94110' };

type Item = { line_items: object; quantity_options: object; dfm: { id: string; created_at: string } };
type Outcome = { id: string; items: Item[]; fulfillment: { production: Array<{ estimated_ship_date: string }> }; tax: object; created_at: string; expires_at: string };

const request = (quantity = 10, shipTo: unknown = SHIP_TO): Record<string, unknown> => ({
  items: [{ design_id: 'des_memo', quantity, quantity_options: [1, 10, 100], configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }],
  ship_to: shipTo,
});
const context = (id: string, now: string, keyed: boolean) => ({ id, now, dfmId: (i: number) => `dfm_${id}_${i}`, ...(keyed ? { dfmKey: () => VARIANT } : {}) });

describe('quotes: priced once per request, design variants, catalog and day', () => {
  let designs: Record<string, Design>;
  const memo = new LocalEngine();
  /** The memo engine's quote and, for the same ids and clock, one worked out afresh (no variant keys: nothing kept). */
  const both = async (req: unknown, id: string, now: string): Promise<{ kept: Outcome; fresh: Outcome }> => ({
    kept: await memo.quote(req, designs, context(id, now, true)) as unknown as Outcome,
    fresh: await new LocalEngine().quote(req, designs, context(id, now, false)) as unknown as Outcome,
  });

  before(async () => {
    const design = await analyze(fixtureBytes(new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname), { fileName: 'l.step', createdAt: NOW });
    designs = { des_memo: { ...design, id: 'des_memo' } };
  });

  it('a second quote of the same request that day shares the first one\'s prices and answers the same bytes', async () => {
    const first = await both(request(), 'quo_1', NOW);
    const second = await both(request(), 'quo_2', LATER_SAME_DAY);
    assert.equal(JSON.stringify(first.kept), JSON.stringify(first.fresh));
    assert.equal(JSON.stringify(second.kept), JSON.stringify(second.fresh));
    // the stored record, its event and the response are written by jsonText: the kept texts spliced in
    assert.equal(jsonText(second.kept), JSON.stringify(second.fresh));
    assert.equal(second.kept.id, 'quo_2');
    assert.equal(second.kept.items[0].dfm.id, 'dfm_quo_2_0');
    assert.equal(second.kept.expires_at, second.fresh.expires_at);
    assert.strictEqual(second.kept.items[0].line_items, first.kept.items[0].line_items, 'the second quote was not priced again');
    assert.strictEqual(second.kept.items[0].quantity_options, first.kept.items[0].quantity_options);
    assert.strictEqual(second.kept.fulfillment, first.kept.fulfillment);
    assert.strictEqual(second.kept.tax, first.kept.tax);
    assert.ok(Object.isFrozen(first.kept.items[0].line_items) && Object.isFrozen(first.kept.fulfillment), 'shared parts cannot be changed by one quote');
    assert.ok(!Object.isFrozen(second.kept) && !Object.isFrozen(second.kept.items[0]), 'the quote\'s own envelope is its own');
  });

  it('another day, quantity or destination is priced afresh, and answers what a fresh quote answers', async () => {
    const today = await both(request(), 'quo_a', NOW);
    const tomorrow = await both(request(), 'quo_b', NEXT_DAY);
    const more = await both(request(20), 'quo_c', NOW);
    const elsewhere = await both(request(10, { ...SHIP_TO, state: 'NY', postal_code: '10001' }), 'quo_d', NOW);
    const nowhere = await both(request(10, null), 'quo_e', NOW);
    for (const { kept, fresh } of [tomorrow, more, elsewhere, nowhere]) {
      assert.equal(JSON.stringify(kept), JSON.stringify(fresh));
      assert.equal(jsonText(kept), JSON.stringify(fresh));
      assert.notStrictEqual(kept.fulfillment, today.kept.fulfillment);
    }
    assert.notEqual(tomorrow.kept.fulfillment.production[0].estimated_ship_date, today.kept.fulfillment.production[0].estimated_ship_date, 'the ship dates moved');
    assert.notDeepEqual(more.kept.items[0].line_items, today.kept.items[0].line_items);
    assert.notDeepEqual(elsewhere.kept.tax, today.kept.tax);
  });

  it('without variant keys nothing is kept; a request the engine refuses keeps nothing and is refused again', async () => {
    const engine = new LocalEngine();
    const a = await engine.quote(request(), designs, context('quo_x', NOW, false)) as unknown as Outcome;
    const b = await engine.quote(request(), designs, context('quo_y', NOW, false)) as unknown as Outcome;
    assert.notStrictEqual(b.items[0].line_items, a.items[0].line_items);
    await engine.quote(request(), designs, context('quo_z', NOW, true));
    // JSON writes it as the request above, but the engine refuses the unknown field, every time
    const undefinedField = { ...request(), items: [{ ...(request().items as object[])[0], unknown_field: undefined }] };
    for (let i = 0; i < 2; i++) {
      await assert.rejects(engine.quote(undefinedField, designs, context(`quo_bad${i}`, NOW, true)), (err: { code?: string }) => err.code === 'invalid_configuration');
      await assert.rejects(engine.quote(request(0), designs, context(`quo_zero${i}`, NOW, true)), (err: { code?: string }) => err.code === 'invalid_configuration');
    }
  });
});
