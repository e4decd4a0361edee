// KERF_QUOTE_CACHE=0 (the bench's "before"): the service composes NO_QUOTE_CACHING
// (adapters/usecases/src/core/quote-caching.ts), so nothing is reused within an account: every quote
// item stores a DFM report of its own, the engine prices every quote afresh (no memo keys), and a
// repeated upload is analysed again. The same requests with the default composition reuse all three
// (test/quote-cache.test.ts, test/hash-reuse.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PoolEngine } from '@kerf/service';
import type { PartPricesContext } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, stepForm } from './helpers/client.ts';

const FIXTURE = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;

/** The real pool engine, noting what it is asked. */
class NotingPoolEngine extends PoolEngine {
  analyses = 0;
  memoKeys: Array<PartPricesContext['dfmKeys']> = [];
  override async analyze(...args: Parameters<PoolEngine['analyze']>) {
    this.analyses++;
    return super.analyze(...args);
  }
  override async partPrices(...args: Parameters<PoolEngine['partPrices']>) {
    this.memoKeys.push(args[2].dfmKeys);
    return super.partPrices(...args);
  }
}

async function upload(c: Client): Promise<any> {
  const r = await c.post('/v1/analyze', { form: stepForm(FIXTURE) });
  assert.ok([200, 201, 202].includes(r.status), r.text);
  return pollDesign(c, r.body.id);
}

async function quoteOf(c: Client, designId: string): Promise<any> {
  const r = await c.post('/v1/quotes', { json: { items: [{ design_id: designId, quantity: 3 }] } });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

for (const quoteCache of [false, true]) {
  describe(`quote cache ${quoteCache ? 'on (default)' : 'off (KERF_QUOTE_CACHE=0)'}`, () => {
    let t: TestService;
    let a: Client;
    let engine: NotingPoolEngine;

    before(async () => {
      engine = new NotingPoolEngine({ threads: 1, timeoutMs: 120_000, maxMemoryMb: 2048 });
      t = await startTestService({ quoteCache }, { engine });
      ({ a } = await clientsFor(t));
    });
    after(async () => { await t?.close(); });

    it(quoteCache ? 'reuses the analysis, the stored report and the engine memo' : 'reuses nothing: each upload analysed, each quote its own report, no memo keys', async () => {
      const first = await upload(a);
      const second = await upload(a);
      assert.equal(first.status, 'ready');
      assert.equal(second.status, 'ready');
      assert.equal(engine.analyses, quoteCache ? 1 : 2, 'analyses of the same bytes');
      const q1 = await quoteOf(a, first.id);
      const q2 = await quoteOf(a, first.id);
      assert.equal(q1.items[0].dfm.id === q2.items[0].dfm.id, quoteCache, 'the second quote names the first one\'s report');
      assert.equal(q2.amount_subtotal_cents, q1.amount_subtotal_cents);
      assert.deepEqual(engine.memoKeys.map((k) => Array.isArray(k)), [quoteCache, quoteCache], 'the engine is given memo keys');
      const indexes = await Promise.all(['dfm_report_cache', 'design_content_index'].map((name) => t.service.store.documents(name).list(t.accountA)));
      assert.deepEqual(indexes.map((p) => p.items.length), quoteCache ? [1, 1] : [0, 0], 'reuse index entries kept');
    });
  });
}
