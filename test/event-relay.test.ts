// The event relay on a real store: a record whose events cannot be handed on now stays in the
// outbox for the next pass without holding up the others, and a pass that is repeated (a relay that
// died before clearing, or two processes at once) schedules each delivery once; and one process's relay at a time
// walks the outbox (a store lease), another taking over when it stops or its lease ends.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Outbox, type Store } from '@kerf/store';
import { createWebhookEndpoint, emitEvent, EventRelay, newEvent, relayEvents, SCOPES, WEBHOOK_DELIVERY_JOB, type UseCaseContext } from '@kerf/usecases';
import { until } from './helpers/wait.ts';

/** The store, with one method of its outbox wrapped (the others, and any patched later, as they are). */
function outboxWith<K extends keyof Outbox>(store: Store, method: K, wrap: (real: Outbox[K]) => Outbox[K]): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'outbox') return Reflect.get(target, prop, receiver);
      const outbox = target.outbox;
      const wrapped = wrap((outbox[method] as (...args: never[]) => unknown).bind(outbox) as Outbox[K]);
      return new Proxy(outbox, { get: (o, p, r) => (p === method ? wrapped : Reflect.get(o, p, r)) });
    },
  });
}

describe('event relay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-relay-'));
  let store: Store;
  let failFor: string | null = null;
  let ctx: UseCaseContext;
  let accountId = '';
  const errors: string[] = [];

  before(async () => {
    store = await openStore({ dataDir: dir });
    // the store, except that keeping one chosen event fails (a database hiccup)
    const flaky = outboxWith(store, 'keep', (keep) => (entry, ids, collection) => (failFor && ids.includes(failFor) ? Promise.reject(new Error('disk hiccup')) : keep(entry, ids, collection)));
    accountId = (await store.accounts.create({ email: `relay-${Date.now()}@test.local` })).id;
    let n = 0;
    ctx = {
      store: flaky, engine: null as never, links: null as never, signer: null as never,
      log: { info() {}, warn() {}, error(obj: object) { errors.push(String((obj as { err?: Error }).err?.message)); } },
      now: () => new Date(), newId: (p: string) => `${p}_relaytest${++n}`, notifyJobs() {},
      webhooks: { refuseUrl: () => null, send: async () => ({ delivered: true, responseStatus: 204, error: null }) },
    };
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a record it cannot hand on for the next pass and hands on the others', async () => {
    const caller = { accountId, scopes: SCOPES, via: 'api_key' as const, credentialId: null, operator: false };
    const ep = await createWebhookEndpoint(ctx, caller, { url: 'https://hooks.example.com/kerf' });
    const orders = store.documents<{ status: string }>('orders');
    const first = newEvent(ctx, 'order.status_changed', { id: 'ord_a', status: 'in_production' });
    const second = newEvent(ctx, 'order.status_changed', { id: 'ord_b', status: 'shipped' });
    await orders.create(accountId, { status: 'in_production' }, { events: [first] });
    await orders.create(accountId, { status: 'shipped' }, { events: [second] });
    failFor = first.id;
    assert.equal(await relayEvents(ctx), 1, 'the other record was handed on');
    assert.deepEqual(errors, ['disk hiccup']);
    const pending = (await store.outbox.pending()).filter((e) => e.accountId === accountId);
    assert.deepEqual(pending.map((e) => e.events.map((x) => x.id)), [[first.id]], 'the failed one waits in the outbox');
    assert.equal((await store.jobs.listForResource(`${second.id}:${ep.id}`)).length, 1);
    assert.equal((await store.jobs.listForResource(`${first.id}:${ep.id}`)).length, 0);

    failFor = null;
    assert.equal(await relayEvents(ctx), 1);
    assert.deepEqual((await store.outbox.pending()).filter((e) => e.accountId === accountId), []);
    const jobs = await store.jobs.listForResource(`${first.id}:${ep.id}`);
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0].kind, WEBHOOK_DELIVERY_JOB);
  });

  it('a record it cannot hand on does not stall newer ones, however many pages it takes', async () => {
    const orders = store.documents<{ status: string }>('orders');
    const stuck = newEvent(ctx, 'order.status_changed', { id: 'ord_stuck', status: 'shipped' });
    await orders.create(accountId, { status: 'shipped' }, { events: [stuck] });
    const later = [];
    for (let i = 0; i < 3; i++) {
      const e = newEvent(ctx, 'order.status_changed', { id: `ord_later${i}`, status: 'shipped' });
      await orders.create(accountId, { status: 'shipped' }, { events: [e] });
      later.push(e.id);
    }
    failFor = stuck.id;
    // pages of one record: the stuck one fills the first page, the pass goes on past it
    assert.equal(await relayEvents(ctx, 1), 3);
    assert.deepEqual((await store.outbox.pending()).filter((e) => e.accountId === accountId).map((e) => e.events[0].id), [stuck.id]);
    failFor = null;
    assert.equal(await relayEvents(ctx, 1), 1);
  });

  it('a repeated hand-on (the relay died before clearing) schedules each delivery once', async () => {
    const eventId = await emitEvent(ctx, accountId, 'cart.checked_out', { id: 'crt_x', status: 'checked_out' });
    const [entry] = (await store.outbox.pending()).filter((e) => e.accountId === accountId);
    assert.equal(entry.events[0].id, eventId);
    // hand it on twice without clearing in between, as two relays (or a dead and a new one) would
    const realClear = store.outbox.clear.bind(store.outbox);
    store.outbox.clear = async () => {};
    try {
      assert.equal(await relayEvents(ctx), 1);
      assert.equal(await relayEvents(ctx), 1);
    } finally {
      store.outbox.clear = realClear;
    }
    assert.equal(await relayEvents(ctx), 1);
    assert.equal(await relayEvents(ctx), 0, 'cleared now');
    const endpoints = (await store.documents<{ id: string; active: boolean }>('webhook_endpoints').list(accountId, { filter: { active: true } })).items;
    assert.ok(endpoints.length >= 1);
    for (const ep of endpoints) {
      assert.equal((await store.jobs.listForResource(`${eventId}:${ep.id}`)).length, 1, 'one delivery job per endpoint');
      const attempts = await store.documents<{ attempt: number }>('webhook_deliveries').list(accountId, { filter: { _delivery: `${eventId}:${ep.id}` } });
      assert.deepEqual(attempts.items.map((r) => r.data.attempt), [1], 'one attempt record');
    }
  });

  it('keeps the body of an event some endpoint subscribes to, as recorded, and only clears the others', async () => {
    const other = (await store.accounts.create({ email: `relay-only-quotes-${Date.now()}@test.local` })).id;
    const caller = { accountId: other, scopes: SCOPES, via: 'api_key' as const, credentialId: null, operator: false };
    const ep = await createWebhookEndpoint(ctx, caller, { url: 'https://hooks.example.com/quotes', events: ['quote.ready'] });
    const quotes = store.documents<{ status: string }>('quotes');
    const data = { id: 'quo_x', object: 'quote', note: 'é \u2028 "quoted" \\ /', figures: [1e-7, 0.1, 123456789.125, -2], none: null };
    const ready = newEvent(ctx, 'quote.ready', data);
    const failed = newEvent(ctx, 'quote.failed', { id: 'quo_y', object: 'quote' });
    await quotes.create(other, { status: 'ready' }, { events: [ready, failed] });
    assert.equal(await relayEvents(ctx), 1);
    assert.deepEqual((await store.outbox.pending()).filter((e) => e.accountId === other), []);
    const kept = await store.documents<unknown>('events').get(other, ready.id);
    assert.equal(JSON.stringify(kept?.data), JSON.stringify(ready.payload), 'the body every delivery sends');
    assert.equal(await store.documents<unknown>('events').get(other, failed.id), null, 'no endpoint wants it: nothing would read it');
    assert.equal((await store.jobs.listForResource(`${ready.id}:${ep.id}`)).length, 1);
    assert.equal((await store.jobs.listForResource(`${failed.id}:${ep.id}`)).length, 0);
  });
});

describe('event relay lease: one process\'s relay at a time walks the outbox', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-relay-lease-'));
  let store: Store;
  let storeNow = Date.parse('2026-11-25T00:00:00.000Z');
  const relays: EventRelay[] = [];
  let accountId = '';
  let n = 0;

  /** A process's relay: its own context on the shared store, counting the outbox pages it reads. */
  function relay(): { relay: EventRelay; pages: () => number; passedOn: () => number } {
    let pages = 0;
    let passedOn = 0;
    const counted = outboxWith(store, 'heads', (heads) => (opts) => { pages++; return heads(opts); });
    const ctx: UseCaseContext = {
      store: counted, engine: null as never, links: null as never, signer: null as never,
      log: { info() {}, warn() {}, error() {} }, now: () => new Date(storeNow), newId: (p: string) => `${p}_leasetest${++n}`, notifyJobs() {},
    };
    const r = new EventRelay(ctx, { pollMs: 10, leaseMs: 60, elsewhere: () => { passedOn++; } });
    relays.push(r);
    return { relay: r, pages: () => pages, passedOn: () => passedOn };
  }

  async function record(): Promise<string> {
    const orders = store.documents<{ status: string }>('orders');
    const o = await orders.create(accountId, { status: 'shipped' }, { events: [{ id: `evt_lease${++n}`, type: 'order.status_changed', payload: { n } }] });
    return o.id;
  }
  const handedOn = (id: string) => async () => (await store.outbox.heads({ limit: 1000 })).every((e) => e.resourceId !== id);

  before(async () => {
    // the store's clock, moved by hand: a lease ends only when the test says so
    store = await openStore({ dataDir: dir, now: () => new Date(storeNow) });
    accountId = (await store.accounts.create({ email: `lease-${Date.now()}@test.local` })).id;
  });
  after(async () => {
    for (const r of relays) await r.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('only the holder reads the outbox; a stopped holder hands over at once', async () => {
    const a = relay();
    a.relay.start();
    await until('a to take the lease and hand on', handedOn(await record()));
    const b = relay();
    b.relay.start();
    for (let i = 0; i < 3; i++) {
      const id = await record();
      a.relay.wake();
      b.relay.wake();
      await until('the holder to hand on', handedOn(id));
    }
    assert.ok(a.pages() > 0);
    assert.equal(b.pages(), 0, 'the other relay never read the outbox');
    await until('b to pass its wakes on to the holder', async () => b.passedOn() > 0);
    assert.equal(a.passedOn(), 0, 'the holder looks itself');
    const passed = b.passedOn();
    b.relay.wakeFromElsewhere();
    await new Promise((r) => setTimeout(r, 50)); // however long: the lease cannot end by the store's clock
    assert.equal(b.passedOn(), passed, 'a wake passed on is not passed on again');
    assert.equal(b.pages(), 0, 'nor does a relay without the lease read the outbox for it');
    await a.relay.stop();
    const id = await record();
    b.relay.wake();
    await until('b to take over', handedOn(id));
    assert.ok(b.pages() > 0);
    await b.relay.stop();
  });

  it('a holder that died (its lease never renewed) is replaced once its lease ends', async () => {
    assert.equal(await store.leases.acquire('event_relay', 'relay_dead', 1000), true);
    const c = relay();
    c.relay.start();
    const id = await record();
    c.relay.wake();
    // by the store's clock the dead holder's lease has not ended: however long this waits, c stays out
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(c.pages(), 0);
    assert.equal(await handedOn(id)(), false, 'still pending');
    storeNow += 1000;
    await until('c to take over', handedOn(id));
    assert.ok(c.pages() > 0);
  });
});

