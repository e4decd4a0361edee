// Webhooks end to end over REST: the real service (store on disk, fastify on a port, the worker
// pool), a real receiver on 127.0.0.1 that checks every signature with its own HMAC, and a service
// clock the test moves forward to run the whole retry schedule without waiting for it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { emitEvent, RETRY_DELAYS_MS, type EventType } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollProductionFiles, stepForm } from './helpers/client.ts';
import { Receiver, signedWith, type Delivery } from './helpers/receiver.ts';

const fixture = (rel: string): string => new URL(`../fixtures/${rel}`, import.meta.url).pathname;
/** A STEP file without solids: its analysis fails with empty_model. */
const EMPTY_STEP = "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('e.step','2026-01-01',(''),(''),'','','');\nFILE_SCHEMA(('AUTOMOTIVE_DESIGN'));\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n";

describe('webhooks', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  const rx = new Receiver();
  let offset = 0;
  const clock = (): Date => new Date(Date.now() + offset);

  before(async () => {
    await rx.start();
    t = await startTestService({ webhookAllowHttpLoopback: true }, { now: clock, storeNow: clock });
    ({ a, b } = await clientsFor(t));
  });
  after(async () => {
    await t?.close();
    await rx.close();
  });

  async function endpoint(path: string, events?: EventType[]): Promise<{ id: string; secret: string }> {
    const r = await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}${path}`, ...(events ? { events } : {}) } });
    assert.equal(r.status, 201, r.text);
    return r.body;
  }

  /** Every delivery to `path` is signed by exactly these secrets, in this order (own HMAC). */
  function assertSigned(d: Delivery, secrets: string[]): void {
    assert.equal(d.signatures.length, secrets.length, `signatures: ${String(d.headers['x-svc-signature'])}`);
    secrets.forEach((s, i) => assert.ok(signedWith(d, s, d.signatures[i]), `signature ${i + 1} is the HMAC of timestamp.body under its secret`));
    assert.equal(d.headers['content-type'], 'application/json');
    assert.equal(d.headers['x-svc-event'], d.body.type);
    assert.match(String(d.headers['x-svc-timestamp']), /^\d{10}$/);
  }

  async function deliveriesOf(id: string): Promise<any[]> {
    const r = await a.get(`/v1/webhook-endpoints/${id}/deliveries`);
    assert.equal(r.status, 200, r.text);
    return r.body.data;
  }

  /** Waits until the delivery job of (event, endpoint) is no longer running (queued for later, or finished). */
  async function settled(eventId: string, endpointId: string, status: 'queued' | 'done'): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const jobs = await t.service.store.jobs.listForResource(`${eventId}:${endpointId}`);
      if (jobs.length === 1 && jobs[0].status === status) return;
      assert.ok(Date.now() < deadline, `job of ${eventId} to ${endpointId}: ${JSON.stringify(jobs.map((j) => [j.status, j.attempts]))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('creates endpoints with the secret shown once; lists, gets and deletes them; other accounts see 404', async () => {
    const created = await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/crud`, description: 'ops' } });
    assert.equal(created.status, 201, created.text);
    const e = created.body;
    assert.match(e.id, /^whe_/);
    assert.equal(e.object, 'webhook_endpoint');
    assert.match(e.secret, /^whsec_[A-Za-z0-9_-]{20,}$/);
    assert.deepEqual(e.events, ['design.ready', 'design.failed', 'dfm_report.production_files.ready', 'dfm_report.production_files.failed', 'quote.ready', 'quote.failed', 'cart.checked_out', 'order.status_changed']);
    assert.equal(e.active, true);
    assert.equal(e.description, 'ops');
    const got = await a.get(`/v1/webhook-endpoints/${e.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined, 'the secret is shown only at creation');
    const { secret: _s, ...withoutSecret } = e;
    assert.deepEqual(got.body, withoutSecret);
    const listed = await a.get('/v1/webhook-endpoints');
    assert.equal(listed.body.object, 'list');
    assert.ok(listed.body.data.some((x: any) => x.id === e.id));
    assert.ok(listed.body.data.every((x: any) => x.secret === undefined && x.active === true));
    assert.ok(!listed.text.includes(e.secret), 'no secret anywhere in the list');
    const sub = await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/sub`, events: ['quote.failed', 'design.ready'] } });
    assert.deepEqual(sub.body.events, ['design.ready', 'quote.failed']);

    for (const [method, path] of [['GET', `/v1/webhook-endpoints/${e.id}`], ['DELETE', `/v1/webhook-endpoints/${e.id}`], ['GET', `/v1/webhook-endpoints/${e.id}/deliveries`], ['POST', `/v1/webhook-endpoints/${e.id}/roll-secret`]]) {
      const r = await b.request(method, path);
      assert.equal(r.status, 404, `${method} ${path} by another account`);
      assert.equal(r.body.error.code, 'resource_missing');
    }
    assert.ok(!(await b.get('/v1/webhook-endpoints')).body.data.some((x: any) => x.id === e.id));

    const del = await a.request('DELETE', `/v1/webhook-endpoints/${e.id}`, { headers: { 'content-type': 'application/json' } });
    assert.equal(del.status, 204, del.text);
    assert.equal(del.text, '');
    assert.equal((await a.request('DELETE', `/v1/webhook-endpoints/${e.id}`)).status, 404, 'already gone');
    assert.equal((await a.get(`/v1/webhook-endpoints/${e.id}`)).status, 404);
    assert.ok(!(await a.get('/v1/webhook-endpoints')).body.data.some((x: any) => x.id === e.id), 'only active endpoints are listed');
    await a.request('DELETE', `/v1/webhook-endpoints/${sub.body.id}`);
  });

  it('refuses bad requests: unsafe URLs (SSRF), unknown events, unknown fields', async () => {
    for (const url of ['http://example.com/hook', 'https://169.254.169.254/latest/meta-data/', 'https://10.0.0.8/hook', 'https://metadata.google.internal/', 'ftp://example.com/', 'nope']) {
      const r = await a.post('/v1/webhook-endpoints', { json: { url } });
      assert.equal(r.status, 422, `${url}: ${r.text}`);
      assert.equal(r.body.error.code, 'invalid_webhook_url');
      assert.equal(r.body.error.param, 'url');
    }
    const ev = await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/x`, events: ['design.exploded'] } });
    assert.equal(ev.status, 422);
    assert.equal(ev.body.error.param, 'events[0]');
    const extra = await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/x`, secret: 'mine' } });
    assert.equal(extra.status, 422);
    assert.equal(extra.body.error.code, 'parameter_unknown');
    const limit = await a.get('/v1/webhook-endpoints/whe_x/deliveries?limit=101');
    assert.equal(limit.status, 422);
  });

  it('delivers design.ready with the design as GET returns it, signed, and logs the attempt', async () => {
    const ep = await endpoint('/ready', ['design.ready', 'design.failed']);
    const up = await a.post('/v1/analyze', { form: stepForm(fixture('sheet/l_t2_r2.step')) });
    assert.equal(up.status, 202, up.text);
    await rx.until((all) => all.some((d) => d.path === '/ready' && d.body.data.id === up.body.id), 'design.ready');
    const [d] = rx.to('/ready').filter((x) => x.body.data.id === up.body.id);
    assertSigned(d, [ep.secret]);
    assert.equal(d.body.type, 'design.ready');
    assert.match(d.body.id, /^evt_/);
    assert.deepEqual(Object.keys(d.body), ['id', 'type', 'created_at', 'data']);
    const design = await a.get(`/v1/designs/${up.body.id}`);
    assert.equal(design.body.status, 'ready');
    assert.deepEqual(d.body.data, design.body, 'data is the design as GET returns it');
    a.openapi.check('GET', `/v1/designs/${up.body.id}`, 200, d.body.data);
    await settled(d.body.id, ep.id, 'done');
    const log = await deliveriesOf(ep.id);
    assert.equal(log.length, 1);
    assert.deepEqual({ ...log[0], id: undefined, created_at: undefined, delivered_at: undefined },
      { id: undefined, object: 'webhook_delivery', event_id: d.body.id, event_type: 'design.ready', status: 'succeeded', attempt: 1, response_status: 200, error: null, created_at: undefined, next_attempt_at: null, delivered_at: undefined });
    assert.ok(log[0].delivered_at);
    await a.request('DELETE', `/v1/webhook-endpoints/${ep.id}`);
  });

  it('retries at 1 min, 5 min, 30 min, 2 h and 8 h: one endpoint recovers at the 6th attempt, another fails for good', async () => {
    const flaky = await endpoint('/flaky', ['order.status_changed']);
    const down = await endpoint('/down', ['order.status_changed']);
    rx.answer = (d, res) => {
      const n = rx.to(d.path).length;
      res.writeHead(d.path === '/flaky' && n >= 6 ? 204 : 500).end('no');
    };
    const eventId = await emitEvent(t.service.ctx, t.accountA, 'order.status_changed', { id: 'ord_test', object: 'order', status: 'in_production' });
    for (let attempt = 1; attempt <= 6; attempt++) {
      await rx.until((all) => all.filter((d) => d.path === '/flaky').length === attempt && all.filter((d) => d.path === '/down').length === attempt, `attempt ${attempt}`);
      const last = attempt === 6;
      await settled(eventId, flaky.id, last ? 'done' : 'queued');
      await settled(eventId, down.id, last ? 'done' : 'queued');
      for (const [ep, path] of [[flaky, '/flaky'], [down, '/down']] as const) {
        const d = rx.to(path)[attempt - 1];
        assert.equal(d.body.id, eventId, 'the same event every time');
        assert.equal(d.raw.toString(), rx.to(path)[0].raw.toString(), 'the same bytes every time');
        assertSigned(d, [ep.secret]);
        const log = await deliveriesOf(ep.id);
        const rec = log.find((x) => x.attempt === attempt)!;
        if (last) continue;
        assert.equal(rec.status, 'failed');
        assert.equal(rec.response_status, 500);
        // next attempt at the schedule's delay after this one (by the service clock the header carries)
        const sent = Number(d.headers['x-svc-timestamp']) * 1000;
        const gap = Date.parse(rec.next_attempt_at) - sent;
        assert.ok(gap >= RETRY_DELAYS_MS[attempt - 1] - 1000 && gap <= RETRY_DELAYS_MS[attempt - 1] + 30_000, `attempt ${attempt}: next after ${gap} ms`);
        const next = log.find((x) => x.attempt === attempt + 1)!;
        assert.equal(next.status, 'pending');
        assert.equal(next.next_attempt_at, rec.next_attempt_at);
      }
      if (!last) offset += RETRY_DELAYS_MS[attempt - 1];
    }
    // newest first; attempts 1 and 2 may be recorded in the same millisecond, so compare by attempt
    const newestFirst = (log: any[]) => log.every((x, i) => i === 0 || Date.parse(log[i - 1].created_at) >= Date.parse(x.created_at) - 2);
    const byAttempt = (log: any[]) => [...log].sort((x, y) => y.attempt - x.attempt);
    const flakyLog = await deliveriesOf(flaky.id);
    assert.ok(newestFirst(flakyLog), 'newest first');
    assert.deepEqual(byAttempt(flakyLog).map((x) => [x.attempt, x.status, x.response_status]),
      [[6, 'succeeded', 204], [5, 'failed', 500], [4, 'failed', 500], [3, 'failed', 500], [2, 'failed', 500], [1, 'failed', 500]]);
    const downLog = await deliveriesOf(down.id);
    assert.ok(newestFirst(downLog), 'newest first');
    assert.deepEqual(byAttempt(downLog).map((x) => [x.attempt, x.status]), [[6, 'failed'], [5, 'failed'], [4, 'failed'], [3, 'failed'], [2, 'failed'], [1, 'failed']]);
    assert.equal(byAttempt(downLog)[0].next_attempt_at, null, 'no 7th attempt');
    const limited = await a.get(`/v1/webhook-endpoints/${down.id}/deliveries?limit=2`);
    assert.deepEqual(limited.body.data.map((x: any) => x.attempt), [6, 5]);
    assert.equal(limited.body.has_more, true);
    const rest = await a.get(`/v1/webhook-endpoints/${down.id}/deliveries?limit=100&cursor=${encodeURIComponent(limited.body.next_cursor)}`);
    assert.deepEqual(byAttempt(rest.body.data).map((x: any) => x.attempt), [4, 3, 2, 1]);
    rx.answer = (_d, res) => { res.writeHead(200).end('ok'); };
    for (const ep of [flaky, down]) await a.request('DELETE', `/v1/webhook-endpoints/${ep.id}`);
  });

  it('DELETE abandons pending deliveries: the next attempt is never made', async () => {
    const ep = await endpoint('/gone', ['order.status_changed']);
    rx.answer = (d, res) => { res.writeHead(d.path === '/gone' ? 503 : 200).end(); };
    const eventId = await emitEvent(t.service.ctx, t.accountA, 'order.status_changed', { id: 'ord_gone', object: 'order', status: 'shipped' });
    await rx.until((all) => all.some((d) => d.path === '/gone'), 'first attempt');
    await settled(eventId, ep.id, 'queued');
    // (both records may carry the same millisecond, so they are compared by attempt)
    const byAttempt = (rows: Array<{ attempt: number; status: string }>) => rows.map((x) => [x.attempt, x.status]).sort((x, y) => Number(y[0]) - Number(x[0]));
    assert.deepEqual(byAttempt(await deliveriesOf(ep.id)), [[2, 'pending'], [1, 'failed']]);
    assert.equal((await a.request('DELETE', `/v1/webhook-endpoints/${ep.id}`)).status, 204);
    const stored = await t.service.store.documents<any>('webhook_deliveries').list(t.accountA, { filter: { _endpoint_id: ep.id } });
    assert.deepEqual(byAttempt(stored.items.map((r) => r.data)), [[2, 'abandoned'], [1, 'failed']]);
    offset += RETRY_DELAYS_MS[0];
    t.service.ctx.notifyJobs();
    await settled(eventId, ep.id, 'done');
    assert.equal(rx.to('/gone').length, 1, 'the job ran and sent nothing');
    rx.answer = (_d, res) => { res.writeHead(200).end('ok'); };
  });

  it('after roll-secret, deliveries carry v1=<new>,v1=<old> for 24 h, then only the new one', async () => {
    const ep = await endpoint('/roll', ['cart.checked_out']);
    const rolled = await a.post(`/v1/webhook-endpoints/${ep.id}/roll-secret`, { headers: { 'content-type': 'application/json' } });
    assert.equal(rolled.status, 200, rolled.text);
    assert.match(rolled.body.secret, /^whsec_/);
    assert.notEqual(rolled.body.secret, ep.secret);
    assert.equal((await a.get(`/v1/webhook-endpoints/${ep.id}`)).body.secret, undefined);
    await emitEvent(t.service.ctx, t.accountA, 'cart.checked_out', { id: 'crt_1', object: 'cart', status: 'checked_out' });
    await rx.until((all) => all.filter((d) => d.path === '/roll').length === 1, 'first delivery after the roll');
    assertSigned(rx.to('/roll')[0], [rolled.body.secret, ep.secret]);
    assert.ok(!signedWith(rx.to('/roll')[0], 'whsec_wrong', rx.to('/roll')[0].signatures[0]), 'the receiver check can fail');
    offset += 24 * 3_600_000 + 60_000;
    await emitEvent(t.service.ctx, t.accountA, 'cart.checked_out', { id: 'crt_2', object: 'cart', status: 'checked_out' });
    await rx.until((all) => all.filter((d) => d.path === '/roll').length === 2, 'a delivery a day later');
    assertSigned(rx.to('/roll')[1], [rolled.body.secret]);
    await a.request('DELETE', `/v1/webhook-endpoints/${ep.id}`);
  });

  it('a JSON quote emits quote.ready with the quote as GET returns it; endpoints get only their events', async () => {
    const q = await endpoint('/quotes', ['quote.ready']);
    const all = await endpoint('/all');
    const up = await a.post('/v1/analyze', { form: stepForm(fixture('sheet/l_t2_r2.step')), headers: { prefer: 'wait=60' } });
    assert.equal(up.body.status, 'ready');
    const quote = await a.post('/v1/quotes', { json: { items: [{ design_id: up.body.id, quantity: 2, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }] } });
    assert.equal(quote.status, 201, quote.text);
    await rx.until((ds) => ds.some((d) => d.path === '/quotes' && d.body.data.id === quote.body.id), 'quote.ready');
    const d = rx.to('/quotes').find((x) => x.body.data.id === quote.body.id)!;
    assertSigned(d, [q.secret]);
    assert.equal(d.body.type, 'quote.ready');
    assert.deepEqual(d.body.data, (await a.get(`/v1/quotes/${quote.body.id}`)).body);
    await rx.until((ds) => ds.some((x) => x.path === '/all' && x.body.type === 'quote.ready' && x.body.data.id === quote.body.id), 'quote.ready on the catch-all endpoint');
    await rx.until((ds) => ds.some((x) => x.path === '/all' && x.body.type === 'design.ready' && x.body.data.id === up.body.id), 'design.ready on the catch-all endpoint');
    assert.ok(rx.to('/quotes').every((x) => x.body.type === 'quote.ready'), 'a subscription gets only its events');
    // a DFM report makes its production files in the background: announced when they are
    const configuration = { parts: up.body.parts.map((p: { id: string }) => ({ part_id: p.id, material_id: 'mat_mild_steel_2_0mm' })) };
    const dfm = await a.post('/v1/dfm', { json: { design_id: up.body.id, configuration } });
    assert.equal(dfm.status, 201, dfm.text);
    assert.ok(['pending', 'ready'].includes(dfm.body.production_files.status), JSON.stringify(dfm.body.production_files));
    const dfmId = dfm.body.id;
    await rx.until((ds) => ds.some((x) => x.path === '/all' && x.body.type.startsWith('dfm_report.production_files.') && x.body.data.id === dfmId), 'production files event', 120_000);
    const pf = rx.to('/all').find((x) => x.body.type.startsWith('dfm_report.production_files.') && x.body.data.id === dfmId)!;
    assertSigned(pf, [all.secret]);
    const report = (await a.get(`/v1/dfm/${dfmId}`)).body;
    assert.equal(report.production_files.status, 'ready');
    assert.equal(pf.body.type, 'dfm_report.production_files.ready');
    assert.deepEqual(pf.body.data, report);
    for (const ep of [q, all]) await a.request('DELETE', `/v1/webhook-endpoints/${ep.id}`);
  });

  it('quote.ready of a quote embedding a settled report: its record names the report, the delivery carries it whole', async () => {
    const q = await endpoint('/settled', ['quote.ready']);
    const up = await a.post('/v1/analyze', { form: stepForm(fixture('sheet/l_t2_r2.step')), headers: { prefer: 'wait=60' } });
    assert.equal(up.body.status, 'ready');
    const request = { json: { items: [{ design_id: up.body.id, quantity: 3, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }] } };
    const first = await a.post('/v1/quotes', request);
    assert.equal(first.status, 201, first.text);
    // the report's production files settle; from then on quotes name it
    await pollProductionFiles(a, first.body.items[0].dfm);
    const quote = await a.post('/v1/quotes', request);
    assert.equal(quote.status, 201, quote.text);
    await rx.until((ds) => ds.some((d) => d.path === '/settled' && d.body.data.id === quote.body.id), 'quote.ready');
    const d = rx.to('/settled').find((x) => x.body.data.id === quote.body.id)!;
    assertSigned(d, [q.secret]);
    assert.equal(JSON.stringify(d.body.data), JSON.stringify((await a.get(`/v1/quotes/${quote.body.id}`)).body), 'the quote as GET returns it, byte for byte');
    assert.equal(d.body.data.items[0].dfm.production_files.status, 'ready');
    const kept = await t.service.store.documents<any>('events').get(t.accountA, d.body.id);
    assert.equal(kept?.data.data.items[0].dfm, null, 'the kept event holds no copy of the settled report');
    assert.deepEqual(kept?.data.data._settled_dfm, { 0: quote.body.items[0].dfm.id });
    await a.request('DELETE', `/v1/webhook-endpoints/${q.id}`);
  });

  it('a file that fails analysis emits design.failed, and its file quote quote.failed', async () => {
    const ep = await endpoint('/failed', ['design.failed', 'quote.failed', 'quote.ready']);
    const form = new FormData();
    form.append('request', JSON.stringify({ quantity: 1 }));
    form.append('file', new Blob([EMPTY_STEP]), 'empty.step');
    const q = await a.post('/v1/quotes', { form });
    assert.ok([201, 202].includes(q.status), q.text);
    const designId = q.body.design_id;
    await rx.until((ds) => ds.some((d) => d.path === '/failed' && d.body.type === 'quote.failed' && d.body.data.id === q.body.id), 'quote.failed');
    await rx.until((ds) => ds.some((d) => d.path === '/failed' && d.body.type === 'design.failed' && d.body.data.id === designId), 'design.failed');
    const df = rx.to('/failed').find((d) => d.body.type === 'design.failed')!;
    const qf = rx.to('/failed').find((d) => d.body.type === 'quote.failed')!;
    for (const d of [df, qf]) assertSigned(d, [ep.secret]);
    assert.equal(df.body.data.error.code, 'empty_model');
    assert.deepEqual(df.body.data, (await a.get(`/v1/designs/${designId}`)).body);
    assert.equal(qf.body.data.status, 'failed');
    assert.deepEqual(qf.body.data, (await a.get(`/v1/quotes/${q.body.id}`)).body);
    assert.ok(!rx.to('/failed').some((d) => d.body.type === 'quote.ready'), 'a failed quote is never ready');
    await a.request('DELETE', `/v1/webhook-endpoints/${ep.id}`);
  });

  it('an account has at most 16 active endpoints: of 30 created at once 16 stay, the rest 422 too_many_endpoints; deleting one makes room', async () => {
    const account = await t.service.store.accounts.create({ email: `cap-${Date.now()}@test.local`, name: 'Cap' });
    const key = (await t.service.store.apiKeys.create(account.id))!.api_key;
    const c = new Client(t.url, key, a.openapi);
    const made = await Promise.all(Array.from({ length: 30 }, (_, i) => c.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/cap${i}` } })));
    const kept = made.filter((r) => r.status === 201);
    assert.equal(kept.length, 16, JSON.stringify(made.map((r) => r.status)));
    for (const r of made.filter((x) => x.status !== 201)) {
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.error.code, 'too_many_endpoints');
    }
    const listed = await c.get('/v1/webhook-endpoints?limit=100');
    assert.deepEqual(listed.body.data.map((e: { id: string }) => e.id).sort(), kept.map((r) => r.body.id).sort());
    assert.equal((await c.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/cap-more` } })).status, 422);
    assert.equal((await c.request('DELETE', `/v1/webhook-endpoints/${kept[0].body.id}`)).status, 204);
    assert.equal((await c.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/cap-again` } })).status, 201);
  });
});
