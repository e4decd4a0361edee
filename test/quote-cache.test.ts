// A quote item's DFM report is made once per (design, configuration, catalog version) and reused by
// later quotes of the same account (issue 18.3); another configuration gets its own report, and
// another account never gets this account's report.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, pollProductionFiles, stepForm } from './helpers/client.ts';

const FIXTURE = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;

async function readyDesign(c: Client): Promise<any> {
  const r = await c.post('/v1/analyze', { form: stepForm(FIXTURE) });
  assert.ok([200, 202].includes(r.status), r.text);
  return pollDesign(c, r.body.id);
}

/** A quote body without what names this quote or its clock: what a reuse must not change. */
function body(q: any): any {
  const { id: _id, status_url: _u, created_at: _c, expires_at: _e, ...rest } = q;
  return rest;
}

async function quoteOf(c: Client, designId: string, materialId: string): Promise<any> {
  const r = await c.post('/v1/quotes', { json: { items: [{ design_id: designId, quantity: 10, configuration: { defaults: { material_id: materialId } } }] } });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

describe('quote DFM reuse', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  let design: any;
  let materials: string[];

  before(async () => {
    t = await startTestService();
    ({ a, b } = await clientsFor(t));
    design = await readyDesign(a);
    assert.equal(design.status, 'ready');
    const thickness = design.parts[0].detected_thickness_mm;
    const all = (await a.get('/v1/materials?limit=500')).body.data as Array<{ id: string; thickness_mm: number; bendable: boolean }>;
    materials = all.filter((m) => m.bendable && Math.abs(m.thickness_mm - thickness) < 0.01).map((m) => m.id);
    assert.ok(materials.length >= 2, 'two materials of the part thickness');
  });
  after(async () => { await t?.close(); });

  it('the same design and configuration name one stored report; another configuration its own', async () => {
    const q1 = await quoteOf(a, design.id, materials[0]);
    const q2 = await quoteOf(a, design.id, materials[0]);
    const q3 = await quoteOf(a, design.id, materials[1]);
    assert.notEqual(q1.id, q2.id);
    assert.equal(q2.items[0].dfm.id, q1.items[0].dfm.id);
    assert.deepEqual(q2.items[0].dfm, q1.items[0].dfm);
    assert.equal(q2.amount_subtotal_cents, q1.amount_subtotal_cents);
    assert.deepEqual(body(q2), body(q1), 'a quote naming the reused report answers as the one that made it');
    const read = await a.get(`/v1/quotes/${q2.id}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, q2, 'GET answers the body POST answered');
    assert.notEqual(q3.items[0].dfm.id, q1.items[0].dfm.id);
    // the reused report is the stored one, readable as any other
    const got = await a.get(`/v1/dfm/${q2.items[0].dfm.id}`);
    assert.equal(got.status, 200, got.text);
    // one production-files job for the report, not one per quote
    const jobs = await t.service.store.jobs.listForResource(q1.items[0].dfm.id);
    assert.equal(jobs.filter((j) => j.kind === 'production_files').length, 1);
  });

  it('a reused report shows its production files as they stand: once settled, every later quote shows them settled', async () => {
    const first = await quoteOf(a, design.id, materials[0]);
    const settled = await pollProductionFiles(a, first.items[0].dfm);
    assert.notEqual(settled.production_files.status, 'pending', 'the production files settle');
    for (let i = 0; i < 3; i++) {
      const q = await quoteOf(a, design.id, materials[0]);
      assert.deepEqual(q.items[0].dfm, settled, 'the quote names the report as GET /v1/dfm shows it now');
    }
  });

  it('a quote embedding a settled report stores only its id, and reads back as it was answered', async () => {
    const first = await quoteOf(a, design.id, materials[0]);
    await pollProductionFiles(a, first.items[0].dfm);
    const q = await quoteOf(a, design.id, materials[0]);
    const stored = await t.service.store.documents<any>('quotes').get(t.accountA, q.id);
    assert.ok(stored, 'the quote is stored');
    assert.equal(stored.data.items[0].dfm, null, 'the record holds no copy of the settled report');
    assert.deepEqual(stored.data._settled_dfm, { 0: q.items[0].dfm.id });
    const read = await a.get(`/v1/quotes/${q.id}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(JSON.stringify(read.body), JSON.stringify(q), 'GET answers the body POST answered, key order and all');
  });

  it('a quote names its items\' shared line items and quantity options to the store, which keeps their text once per account', async () => {
    const quotes = t.service.store.quotes;
    const create = quotes.create;
    const named: Array<{ data: unknown; apart: readonly object[] }> = [];
    quotes.create = function (this: typeof quotes, ...args: Parameters<typeof create>) { named.push({ data: args[1], apart: args[2]?.apart ?? [] }); return create.apply(this, args); } as typeof create;
    let second;
    try {
      await quoteOf(a, design.id, materials[0]);
      second = await quoteOf(a, design.id, materials[0]);
    } finally {
      quotes.create = create;
    }
    assert.equal(named.length, 2);
    const [one, two] = named.map((n) => n as { data: { items: Array<{ line_items: object; quantity_options: object }> }; apart: readonly object[] });
    assert.deepEqual(two.apart, [two.data.items[0].line_items, two.data.items[0].quantity_options], 'the item\'s line items and quantity options, as the record holds them');
    assert.strictEqual(two.apart[0], one.apart[0], 'the same value in every quote of the design and configuration');
    assert.ok(Object.isFrozen(two.apart[0]) && Object.isFrozen(two.apart[1]), 'named apart: never changed afterwards');
    const read = await a.get(`/v1/quotes/${second.id}`);
    assert.equal(JSON.stringify(read.body), JSON.stringify(second), 'read back whole');
  });

  it('a cart names its quote\'s shared parts (the settled report, line items) to the store, and reads back whole', async () => {
    const first = await quoteOf(a, design.id, materials[0]);
    await pollProductionFiles(a, first.items[0].dfm);
    const carts = t.service.store.carts;
    const create = carts.create;
    const named: Array<{ data: any; apart: readonly object[] }> = [];
    carts.create = function (this: typeof carts, ...args: Parameters<typeof create>) { named.push({ data: args[1], apart: args[2]?.apart ?? [] }); return create.apply(this, args); } as typeof create;
    let cart;
    try {
      const r = await a.post('/v1/carts', { json: { items: [{ design_id: design.id, quantity: 10, configuration: { defaults: { material_id: materials[0] } } }] } });
      assert.equal(r.status, 201, r.text);
      cart = r.body;
    } finally {
      carts.create = create;
    }
    assert.equal(named.length, 1);
    const item = named[0].data.quote.items[0];
    assert.deepEqual(named[0].apart, [item.dfm, item.line_items, item.quantity_options]);
    const read = await a.get(`/v1/carts/${cart.id}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(JSON.stringify(read.body), JSON.stringify(cart), 'GET answers the body POST answered');
  });

  it('a burst of quotes on a ready design reads its row from the store once (a ready design never changes)', async () => {
    const designs = t.service.store.designs;
    const get = designs.get;
    let reads = 0;
    designs.get = function (this: typeof designs, ...args: Parameters<typeof get>) { if (args[1] === design.id) reads++; return get.apply(this, args); } as typeof get;
    try {
      const quotes = await Promise.all(Array.from({ length: 8 }, () => quoteOf(a, design.id, materials[0])));
      assert.equal(new Set(quotes.map((q) => q.amount_subtotal_cents)).size, 1);
      assert.ok(reads <= 1, `${reads} reads of the design's row for 8 quotes`);
    } finally {
      designs.get = get;
    }
  });

  it('once its report has settled, a burst of quotes reads the report index from the store once (the settled report is fresh for a day)', async () => {
    const first = await quoteOf(a, design.id, materials[1]);
    await pollProductionFiles(a, first.items[0].dfm);
    const index = t.service.store.documents('dfm_report_cache');
    const getByKey = index.getByKey;
    let reads = 0;
    index.getByKey = function (this: typeof index, ...args: Parameters<typeof getByKey>) { reads++; return getByKey.apply(this, args); } as typeof getByKey;
    try {
      const quotes = await Promise.all(Array.from({ length: 8 }, () => quoteOf(a, design.id, materials[1])));
      assert.deepEqual(new Set(quotes.map((q) => q.items[0].dfm.id)), new Set([first.items[0].dfm.id]), 'all name the one report');
      assert.ok(reads <= 1, `${reads} reads of the report index for 8 quotes`);
    } finally {
      index.getByKey = getByKey;
    }
  });

  it('a burst of quotes on one design and configuration works out its material K-factors and configured design once', async () => {
    const engine = t.service.ctx.engine;
    const kFactors = engine.materialKFactors;
    let calls = 0;
    engine.materialKFactors = function (this: typeof engine, ...args: Parameters<typeof kFactors>) { calls++; return kFactors.apply(this, args); } as typeof kFactors;
    try {
      const configuration = { defaults: { material_id: materials[0] }, parts: [] };
      const quotes = await Promise.all(Array.from({ length: 8 }, async () => {
        const r = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 10, configuration }] } });
        assert.equal(r.status, 201, r.text);
        return r.body;
      }));
      assert.equal(new Set(quotes.map((q) => JSON.stringify(body(q)))).size, 1, 'the same quote each time');
      assert.ok(calls <= 1, `${calls} K-factor workings for 8 quotes`);
    } finally {
      engine.materialKFactors = kFactors;
    }
  });

  it('another account quoting its own upload of the same file gets a report of its own', async () => {
    const theirs = await readyDesign(b);
    const qa = await quoteOf(a, design.id, materials[0]);
    const qb = await quoteOf(b, theirs.id, materials[0]);
    assert.notEqual(qb.items[0].dfm.id, qa.items[0].dfm.id);
    assert.equal((await b.get(`/v1/dfm/${qa.items[0].dfm.id}`)).status, 404);
  });
});

describe('quote DFM reuse ends after a day', () => {
  let t: TestService;
  let a: Client;
  let clock = Date.now();

  before(async () => {
    t = await startTestService({}, { now: () => new Date(clock) });
    ({ a } = await clientsFor(t));
  });
  after(async () => { await t?.close(); });

  it('a quote a day later gets a fresh report (its review link outlives the quote), which later quotes then name', async () => {
    const design = await readyDesign(a);
    const thickness = design.parts[0].detected_thickness_mm;
    const all = (await a.get('/v1/materials?limit=500')).body.data as Array<{ id: string; thickness_mm: number; bendable: boolean }>;
    const material = all.find((m) => m.bendable && Math.abs(m.thickness_mm - thickness) < 0.01)!.id;
    const first = await quoteOf(a, design.id, material);
    clock += 25 * 3600 * 1000;
    const later = await quoteOf(a, design.id, material);
    const again = await quoteOf(a, design.id, material);
    assert.notEqual(later.items[0].dfm.id, first.items[0].dfm.id);
    assert.equal(again.items[0].dfm.id, later.items[0].dfm.id);
  });
});
