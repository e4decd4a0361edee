// The in-process engine works a design's DFM under one configuration out once (issue 18.3): part
// prices naming what the report reads of its design (dfmKeys) reuse the report made before for that
// key, configuration and catalog, and answer exactly what prices worked out afresh answer.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Design, type PartPrices, type PriceRequest } from '@kerf/engine';
import { LocalEngine } from '@kerf/service';
import { fixtureBytes } from './helpers/fixtures.ts';

const NOW = '2026-11-27T08:00:00.000Z';
const request = (materialId: string, parts: object[] = []): PriceRequest => ({ items: [{ design_id: 'des_memo', quantity: 10, quantity_options: [1, 100], configuration: { defaults: { material_id: materialId }, parts } }] });
const context = (id: string, key?: string) => ({ now: NOW, dfmIds: [`dfm_${id}`], ...(key ? { dfmKeys: [key] } : {}) });
/** Part prices' JSON with their report's id left out: what must not depend on whether the report was reused. */
const body = (q: PartPrices): string => JSON.stringify(q).replaceAll(q.items[0].dfm.id, 'DFM');

describe('quotes: DFM once per design, configuration and catalog', () => {
  let designs: Record<string, Design>;
  before(async () => {
    const design = await analyze(fixtureBytes(new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname), { fileName: 'l.step', createdAt: NOW });
    designs = { des_memo: { ...design, id: 'des_memo' } };
  });

  it('second prices with the same key reuse the first report and answer the same', async () => {
    const engine = new LocalEngine();
    const fresh = await new LocalEngine().partPrices(request('mat_mild_steel_2_0mm'), designs, context('quo_fresh'));
    const first = await engine.partPrices(request('mat_mild_steel_2_0mm'), designs, context('quo_1', 'des_memo/k0'));
    const second = await engine.partPrices(request('mat_mild_steel_2_0mm'), designs, context('quo_2', 'des_memo/k0'));
    assert.equal(body(first), body(fresh));
    assert.equal(body(second), body(fresh));
    assert.equal(second.items[0].dfm.id, 'dfm_quo_2', 'the report carries its own id');
    assert.strictEqual(second.items[0].dfm.parts, first.items[0].dfm.parts, 'the second prices did not work the report out again');
    assert.ok(Object.isFrozen(first.items[0].dfm.parts[0]), 'a shared report cannot be changed by one quote');
  });

  it('another configuration or key is worked out afresh; a refused configuration keeps nothing', async () => {
    const engine = new LocalEngine();
    const a = await engine.partPrices(request('mat_mild_steel_2_0mm'), designs, context('quo_a', 'des_memo/k0'));
    const b = await engine.partPrices(request('mat_304_2_0mm'), designs, context('quo_b', 'des_memo/k0'));
    const c = await engine.partPrices(request('mat_mild_steel_2_0mm'), designs, context('quo_c', 'des_memo/k1'));
    assert.notStrictEqual(b.items[0].dfm.parts, a.items[0].dfm.parts);
    assert.notStrictEqual(c.items[0].dfm.parts, a.items[0].dfm.parts);
    for (let i = 0; i < 2; i++) {
      // a part the design does not have: dfm() refuses it, every time
      await assert.rejects(engine.partPrices(request('mat_mild_steel_2_0mm', [{ part_id: 'prt_not_here' }]), designs, context(`quo_bad${i}`, 'des_memo/k0')), (err: { code?: string }) => err.code === 'invalid_configuration');
    }
  });
});
