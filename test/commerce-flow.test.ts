// Commerce over real HTTP on the embedded store and the embedded processor (docs/api.md "Carts and
// payment", "Orders", "Account"; docs/commerce.md "Buying: account, cart, pay, orders"): save a card on the
// hosted setup page, create a cart, PATCH it to a destination and a shipping option, pay it once
// (replays, a second key, declines, processing payments, concurrent pays), read the orders, and
// move an order through fulfilment as an operator. Every JSON response is checked against the
// service's OpenAPI document.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiKeyCaller, createCartFromQuote, paymentUpdated } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { until } from './helpers/wait.ts';
import { Client, clientsFor, pollDesign, stepForm, type Res } from './helpers/client.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };

/** Saves a test card through the account's hosted setup page, as a person would. */
async function saveCard(client: Client, token: string): Promise<void> {
  const account = await client.get('/v1/account');
  assert.equal(account.status, 200, account.text);
  const url = account.body.payment_method_setup_url as string | null;
  assert.ok(url, 'an account without a card has a setup URL');
  const page = await fetch(url);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.ok(html.includes(`value="${token}"`), 'the page offers the test card');
  assert.ok(!/<script/i.test(html), 'no script on the page');
  const saved = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payment_method: token }).toString() });
  assert.equal(saved.status, 200, await saved.clone().text());
  assert.match(await saved.text(), /Card saved/);
}

describe('commerce: account, carts, pay, orders, operator actions', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  let design: { id: string; parts: Array<{ id: string; name: string | null; detected_thickness_mm: number }> };
  let items: unknown[];
  let optionId: string;

  const patch = (c: Client, path: string, json: unknown): Promise<Res> => c.request('PATCH', path, { json });
  const pay = (c: Client, cartId: string, key: string | null, payment: unknown = { type: 'card_on_file' }): Promise<Res> =>
    c.post(`/v1/carts/${cartId}/pay`, { json: { payment }, headers: key ? { 'idempotency-key': key } : {} });
  /** A cart that passes rule 6 (ship_to and a shipping option set). */
  async function readyCart(c: Client = a): Promise<any> {
    const r = await c.post('/v1/carts', { json: { items, ship_to: TEXAS, shipping_option_id: optionId } });
    assert.equal(r.status, 201, r.text);
    return r.body;
  }
  async function paymentsOf(cartId: string): Promise<Array<Record<string, any>>> {
    const page = await t.service.store.documents<Record<string, any>>('payment_intents').list('payment_processor', { limit: 1000 });
    return page.items.map((r) => r.data).filter((p) => p.metadata?.cart_id === cartId);
  }

  before(async () => {
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    ({ a, b } = await clientsFor(t));
    const up = await a.post('/v1/analyze', { form: stepForm(L_BRACKET) });
    design = await pollDesign(a, up.body.id);
    const t0 = design.parts[0].detected_thickness_mm;
    const materials = (await a.get('/v1/materials?limit=500')).body.data as Array<{ id: string; thickness_mm: number; bendable: boolean; available: boolean }>;
    const material = materials.filter((m) => m.bendable && m.available).sort((x, y) => Math.abs(x.thickness_mm - t0) - Math.abs(y.thickness_mm - t0))[0];
    items = [{ design_id: design.id, quantity: 4, configuration: { defaults: { material_id: material.id } } }];
  });
  after(async () => { await t?.close(); });

  it('GET /v1/account: no card and a setup URL; the hosted page saves a test card', async () => {
    const r = await a.get('/v1/account');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.object, 'account');
    assert.equal(r.body.id, t.accountA);
    assert.equal(r.body.has_saved_card, false);
    assert.equal(r.body.card, null);
    assert.match(r.body.payment_method_setup_url, new RegExp(`^${t.url}/payment-methods/setup/seti_`));
    assert.equal((await a.get('/v1/account')).body.payment_method_setup_url, r.body.payment_method_setup_url, 'polling does not open a session each time');
    assert.equal((await fetch(`${t.url}/payment-methods/setup/seti_nope`)).status, 404);
    await saveCard(a, 'pm_card_visa');
    const after = await a.get('/v1/account');
    assert.equal(after.body.has_saved_card, true);
    assert.deepEqual(after.body.card, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 });
    assert.equal(after.body.payment_method_setup_url, null);
  });

  it('POST /v1/carts: a cart with cart_url; PATCH sets a US destination and a shipping option, re-quoting each time', async () => {
    const r = await a.post('/v1/carts', { json: { items, client_reference_id: 'po-7' }, headers: { 'idempotency-key': 'cart-1' } });
    assert.equal(r.status, 201, r.text);
    const cart = r.body;
    assert.match(cart.id, /^crt_/);
    assert.equal(cart.revision, 1);
    assert.equal(cart.status, 'open');
    assert.equal(cart.checked_out, false);
    assert.match(cart.cart_url, new RegExp(`^${t.url}/checkout/ctk_[0-9a-z]{26}$`));
    assert.ok(!cart.cart_url.includes(cart.id), 'the checkout token is not the cart id');
    assert.equal(cart.quote.status, 'ready');
    assert.equal(cart.totals.tax_status, 'destination_required');
    assert.equal(cart.client_reference_id, 'po-7');
    const replay = await a.post('/v1/carts', { json: { items, client_reference_id: 'po-7' }, headers: { 'idempotency-key': 'cart-1' } });
    assert.equal(replay.status, 200);
    assert.equal(replay.body.id, cart.id);

    const unready = await pay(a, cart.id, 'early');
    assert.equal(unready.status, 409, unready.text);
    assert.equal(unready.body.error.code, 'cart_not_ready');
    assert.equal(unready.body.error.param, 'ship_to');

    const abroad = await patch(a, `/v1/carts/${cart.id}`, { ship_to: { ...TEXAS, country: 'DE' } });
    assert.equal(abroad.status, 422);
    assert.equal(abroad.body.error.code, 'unsupported_country');
    assert.equal(abroad.body.error.param, 'ship_to.country');
    // tax follows the ZIP code: Austin's ZIP typed with Delaware (no sales tax) is refused by the state
    const delaware = await patch(a, `/v1/carts/${cart.id}`, { ship_to: { ...TEXAS, state: 'DE' } });
    assert.equal(delaware.status, 422, delaware.text);
    assert.equal(delaware.body.error.param, 'ship_to.state');
    assert.match(delaware.body.error.message, /78701.*TX/);
    const noOptions = await patch(a, `/v1/carts/${cart.id}`, { shipping_option_id: 'shp_standard_ups_ground' });
    assert.equal(noOptions.status, 422);
    assert.equal(noOptions.body.error.code, 'unknown_shipping_option');
    assert.equal(noOptions.body.error.param, 'shipping_option_id');

    const shipped = await patch(a, `/v1/carts/${cart.id}`, { ship_to: TEXAS });
    assert.equal(shipped.status, 200, shipped.text);
    assert.equal(shipped.body.revision, 2);
    assert.deepEqual(shipped.body.ship_to, TEXAS);
    assert.equal(shipped.body.totals.tax_status, 'calculated');
    assert.notEqual(shipped.body.quote.id, cart.quote.id, 're-quoted');
    const options = shipped.body.quote.fulfillment.shipping_options as Array<{ id: string; amount_cents: number; production_surcharge_cents: number }>;
    assert.ok(options.length > 0);
    const unknown = await patch(a, `/v1/carts/${cart.id}`, { shipping_option_id: 'shp_teleport' });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.error.code, 'unknown_shipping_option');
    assert.equal(unknown.body.error.param, 'shipping_option_id');
    const option = options.find((o) => o.production_surcharge_cents > 0) ?? options[0];
    optionId = options[0].id;
    const chosen = await patch(a, `/v1/carts/${cart.id}`, { shipping_option_id: option.id });
    assert.equal(chosen.status, 200);
    assert.equal(chosen.body.revision, 3);
    assert.equal(chosen.body.shipping_option_id, option.id);
    assert.equal(chosen.body.selected_shipping_option.id, option.id);
    const totals = chosen.body.totals;
    assert.equal(totals.amount_shipping_cents, option.amount_cents);
    assert.equal(totals.amount_production_surcharge_cents, option.production_surcharge_cents);
    assert.ok(totals.amount_tax_cents > 0, 'Texas sales tax');
    assert.equal(totals.amount_total_cents, totals.amount_subtotal_cents + totals.amount_shipping_cents + totals.amount_production_surcharge_cents + totals.amount_tax_cents);
    assert.deepEqual((await a.get(`/v1/carts/${cart.id}`)).body, chosen.body);

    // another account sees nothing of it
    assert.equal((await b.get(`/v1/carts/${cart.id}`)).status, 404);
    assert.equal((await patch(b, `/v1/carts/${cart.id}`, { ship_to: TEXAS })).status, 404);
    assert.equal((await pay(b, cart.id, 'b-pay')).status, 404);
  });

  it('pay: checked out with order_id, one charge; the same key replays, another key is 409; the cart is frozen', async () => {
    const cart = await readyCart();
    const r = await pay(a, cart.id, 'pay-1');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'checked_out');
    assert.equal(r.body.checked_out, true);
    assert.match(r.body.order_id, /^ord_/);
    assert.equal(r.body.payment.status, 'paid');
    assert.equal(r.body.payment.cart_id, cart.id, 'the payment object existing clients read');
    assert.equal(r.body.payment.order_id, r.body.order_id);
    assert.equal(r.body.payment.amount_total_cents, cart.totals.amount_total_cents);
    const replay = await pay(a, cart.id, 'pay-1');
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, r.body);
    const second = await pay(a, cart.id, 'pay-2');
    assert.equal(second.status, 409);
    assert.equal(second.body.error.code, 'cart_checked_out');
    assert.equal((await patch(a, `/v1/carts/${cart.id}`, { ship_to: TEXAS })).body.error.code, 'cart_checked_out');
    const charges = await paymentsOf(cart.id);
    assert.equal(charges.length, 1, 'one charge');
    assert.equal(charges[0].status, 'succeeded');
    assert.equal(charges[0].amount_cents, cart.totals.amount_total_cents);

    const order = await a.get(`/v1/orders/${r.body.order_id}`);
    assert.equal(order.status, 200, order.text);
    assert.equal(order.body.object, 'order');
    assert.equal(order.body.status, 'received');
    assert.equal(order.body.cart_id, cart.id);
    assert.equal(order.body.quote_id, cart.quote.id);
    assert.equal(order.body.amount_total_cents, cart.totals.amount_total_cents);
    assert.equal(order.body.tracking, null);
    assert.deepEqual(order.body.events.map((e: { type: string }) => e.type), ['received']);
    assert.ok(order.body.line_items.some((l: { type: string; design_id: string }) => l.type === 'part' && l.design_id === design.id));
    assert.ok(order.body.line_items.some((l: { type: string }) => l.type === 'shipping'));
    assert.equal((await b.get(`/v1/orders/${r.body.order_id}`)).status, 404);
  });

  it('402 card_declined with the reason and nothing created; payment_not_completed; then a good card pays', async () => {
    const cart = await readyCart();
    const embedded = t.service.ctx.payments as unknown as { attachPaymentMethod(a: string, token: string): Promise<unknown> };
    await embedded.attachPaymentMethod(t.accountA, 'pm_card_chargeDeclinedInsufficientFunds');
    const ordersBefore = (await a.get('/v1/orders?limit=100')).body.data.length;
    const declined = await pay(a, cart.id, 'decl-1');
    assert.equal(declined.status, 402, declined.text);
    assert.equal(declined.body.error.type, 'payment_error');
    assert.equal(declined.body.error.code, 'card_declined');
    assert.match(declined.body.error.message, /insufficient funds/);
    const after = (await a.get(`/v1/carts/${cart.id}`)).body;
    assert.equal(after.status, 'open');
    assert.equal(after.order_id, null);
    assert.equal(after.payment.status, 'failed');
    assert.equal((await a.get('/v1/orders?limit=100')).body.data.length, ordersBefore, 'no order');
    // the same key is the same answer
    const again = await pay(a, cart.id, 'decl-1');
    assert.equal(again.status, 402);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');

    await embedded.attachPaymentMethod(t.accountA, 'pm_card_authenticationRequired');
    const auth = await pay(a, cart.id, 'decl-2');
    assert.equal(auth.status, 402);
    assert.equal(auth.body.error.code, 'payment_not_completed');

    await embedded.attachPaymentMethod(t.accountA, 'pm_card_visa');
    const ok = await pay(a, cart.id, 'decl-3');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.status, 'checked_out');
    const charges = await paymentsOf(cart.id);
    assert.deepEqual(charges.map((c) => c.status).sort(), ['failed', 'requires_action', 'succeeded']);
  });

  it('a payment method by id (pay body type payment_method)', async () => {
    const cart = await readyCart();
    const bad = await pay(a, cart.id, 'pm-0', { type: 'payment_method' });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error.param, 'payment.id');
    const r = await pay(a, cart.id, 'pm-1', { type: 'payment_method', id: 'pm_card_mastercard' });
    assert.equal(r.status, 200, r.text);
    assert.equal((await paymentsOf(cart.id))[0].payment_method, 'pm_card_mastercard');
  });

  it('202 while processing: retried with the same key, then checked out when it succeeds; a later failure leaves the cart open', async () => {
    const embedded = t.service.ctx.payments as unknown as { attachPaymentMethod(a: string, token: string): Promise<unknown> };
    await embedded.attachPaymentMethod(t.accountA, 'pm_card_processingThenSucceeds');
    const cart = await readyCart();
    const r = await pay(a, cart.id, 'proc-1');
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.status, 'open');
    assert.equal(r.body.payment.status, 'processing');
    assert.match(r.body.payment.payment_intent_id, /^pi_/);
    const other = await pay(a, cart.id, 'proc-other');
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'payment_in_progress');
    const frozen = await patch(a, `/v1/carts/${cart.id}`, { ship_to: TEXAS });
    assert.equal(frozen.status, 409);
    assert.equal(frozen.body.error.code, 'payment_in_progress');
    const retry = await pay(a, cart.id, 'proc-1');
    assert.ok([200, 202].includes(retry.status), retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), null, 'a processing answer is not replayed: the retry looks again');
    const done = await until('the processing payment to check the cart out', async () => {
      const c = (await a.get(`/v1/carts/${cart.id}`)).body;
      return c.status === 'checked_out' ? c : null;
    });
    assert.match(done.order_id, /^ord_/);
    assert.equal((await paymentsOf(cart.id)).length, 1);
    const final = await pay(a, cart.id, 'proc-1');
    assert.equal(final.status, 200);
    assert.equal(final.body.order_id, done.order_id);

    await embedded.attachPaymentMethod(t.accountA, 'pm_card_processingThenFails');
    const cart2 = await readyCart();
    const r2 = await pay(a, cart2.id, 'procf-1');
    assert.equal(r2.status, 202, r2.text);
    const failed = await until('the processing payment to fail', async () => {
      const c = (await a.get(`/v1/carts/${cart2.id}`)).body;
      return c.payment?.status === 'failed' ? c : null;
    });
    assert.equal(failed.status, 'open');
    assert.equal(failed.order_id, null);
    const retried = await pay(a, cart2.id, 'procf-1');
    assert.equal(retried.status, 402, retried.text);
    assert.equal(retried.body.error.code, 'card_declined');
    await embedded.attachPaymentMethod(t.accountA, 'pm_card_visa');
  });

  it('concurrent pays of one cart: one charge, one order', async () => {
    const cart = await readyCart();
    const keys = ['c-1', 'c-2', 'c-3', 'c-1', 'c-4', 'c-1', null, null];
    const results = await Promise.all(keys.map((k) => pay(a, cart.id, k)));
    const ok = results.filter((r) => r.status === 200);
    assert.ok(ok.length >= 1, results.map((r) => r.text).join('\n'));
    assert.equal(new Set(ok.map((r) => r.body.order_id)).size, 1, 'one order');
    for (const r of results.filter((x) => x.status !== 200)) {
      assert.equal(r.status, 409, r.text);
      assert.ok(['cart_checked_out', 'payment_in_progress', 'idempotency_key_in_use'].includes(r.body.error.code), r.text);
    }
    assert.equal((await paymentsOf(cart.id)).length, 1, 'one charge');
    const orders = await t.service.store.documents('orders').list(t.accountA, { limit: 1000 });
    assert.equal(orders.items.filter((o) => (o.data as { cart_id: string }).cart_id === cart.id).length, 1);
  });

  it('an expired cart is 409 cart_expired; a cart on a quote the caller has (createCartFromQuote, the MCP checkout)', async () => {
    const cart = await readyCart();
    const carts = t.service.store.documents<Record<string, unknown>>('carts');
    const rec = (await carts.get(t.accountA, cart.id))!;
    await carts.update(t.accountA, cart.id, { ...rec.data, expires_at: '2020-01-01T00:00:00.000Z' });
    assert.equal((await a.get(`/v1/carts/${cart.id}`)).body.status, 'expired');
    const late = await pay(a, cart.id, 'late-1');
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, 'cart_expired');
    assert.equal((await patch(a, `/v1/carts/${cart.id}`, { ship_to: TEXAS })).body.error.code, 'cart_expired');

    const quote = (await a.post('/v1/quotes', { json: { items } })).body;
    const caller = apiKeyCaller({ accountId: t.accountA, keyId: 'key_test', operator: false });
    const fromQuote = await createCartFromQuote(t.service.ctx, caller, { quote_id: quote.id, client_reference_id: 'agent-1' });
    assert.equal(fromQuote.quote.id, quote.id, 'the quote as it is, not priced again');
    assert.equal(fromQuote.client_reference_id, 'agent-1');
    assert.match(fromQuote.cart_url as string, /\/checkout\/ctk_/);
    const read = await a.get(`/v1/carts/${fromQuote.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.items[0].design_id, design.id);
    const shipped = await patch(a, `/v1/carts/${fromQuote.id}`, { ship_to: TEXAS, shipping_option_id: optionId });
    assert.equal(shipped.status, 200, shipped.text);
    assert.equal(shipped.body.totals.amount_subtotal_cents, quote.amount_subtotal_cents, 'the same configuration re-quoted');
    await assert.rejects(createCartFromQuote(t.service.ctx, caller, { quote_id: 'quo_nope' }), (e: Error & { code?: string }) => e.code === 'resource_missing');
    const other = apiKeyCaller({ accountId: t.accountB, keyId: 'key_b', operator: false });
    await assert.rejects(createCartFromQuote(t.service.ctx, other, { quote_id: quote.id }), (e: Error & { code?: string }) => e.code === 'resource_missing');
  });

  it('a second charge of a paid cart (a stalled process that charged a given-up intent) is refunded', async () => {
    const cart = await readyCart();
    const paid = await pay(a, cart.id, 'stray-1');
    assert.equal(paid.status, 200, paid.text);
    const processor = t.service.ctx.payments!;
    const stray = await processor.charge({
      account: { id: t.accountA }, amount_cents: cart.totals.amount_total_cents, idempotency_key: `${cart.id}_r0_a9`,
      metadata: { cart_id: cart.id, account_id: t.accountA },
    });
    assert.equal(stray.status, 'succeeded');
    await paymentUpdated(t.service.ctx, stray);
    assert.equal((await processor.retrievePayment(stray.id))!.amount_refunded_cents, stray.amount_cents, 'refunded in full');
    const own = (await paymentsOf(cart.id)).find((p) => p.status === 'succeeded' && p.amount_refunded_cents === 0);
    assert.ok(own, 'the payment of the order stands');
    assert.equal((await a.get(`/v1/carts/${cart.id}`)).body.payment.status, 'paid');
  });

  it('GET /v1/orders: newest first, limit and an opaque cursor', async () => {
    const all = (await a.get('/v1/orders?limit=100')).body;
    assert.equal(all.object, 'list');
    assert.ok(all.data.length >= 4);
    const created = all.data.map((o: { created_at: string }) => o.created_at);
    assert.deepEqual(created, [...created].sort().reverse());
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Res = await a.get(`/v1/orders?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(page.status, 200);
      seen.push(...page.body.data.map((o: { id: string }) => o.id));
      cursor = page.body.has_more ? page.body.next_cursor : null;
    } while (cursor);
    assert.deepEqual(seen, all.data.map((o: { id: string }) => o.id));
    assert.equal((await a.get('/v1/orders?limit=0')).status, 422);
    assert.equal((await a.get('/v1/orders?limit=101')).status, 422);
    assert.equal((await a.get('/v1/orders?cursor=bogus')).status, 400);
    assert.equal((await b.get('/v1/orders')).body.data.length, 0);
  });

  it('operator actions: in_production, shipped with tracking, delivered; cancel refunds; events and webhooks recorded', async () => {
    const operator = await t.service.store.accounts.create({ email: `op-${Date.now()}@test.local`, name: 'Ops', operator: true });
    const opKey = (await t.service.store.apiKeys.create(operator.id, { operator: true }))!.api_key;
    const op = new Client(t.url, opKey, a.openapi);
    // the relay keeps an event only for an endpoint that subscribes to it
    const subscribed = await a.post('/v1/webhook-endpoints', { json: { url: 'https://hooks.example.com/commerce', events: ['cart.checked_out', 'order.status_changed'] } });
    assert.equal(subscribed.status, 201, subscribed.text);
    const cart = await readyCart();
    const orderId = (await pay(a, cart.id, 'ops-1')).body.order_id as string;
    const path = `/v1/admin/orders/${orderId}/status`;

    const denied = await a.post(path, { json: { status: 'in_production' } });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, 'operator_required');
    assert.equal((await op.get(`/v1/admin/orders/${orderId}`)).body.account_id, t.accountA);
    assert.equal((await op.post(path, { json: { status: 'in_production' } })).body.status, 'in_production');
    const noTracking = await op.post(path, { json: { status: 'shipped' } });
    assert.equal(noTracking.status, 422);
    assert.equal(noTracking.body.error.param, 'tracking');
    const tracking = { carrier: 'UPS', service: 'Ground', number: '1Z999', url: 'https://www.ups.com/track?tracknum=1Z999' };
    const shipped = await op.post(path, { json: { status: 'shipped', tracking } });
    assert.equal(shipped.status, 200, shipped.text);
    assert.equal(shipped.body.tracking.number, '1Z999');
    assert.equal((await op.post(path, { json: { status: 'delivered' } })).body.status, 'delivered');
    const back = await op.post(path, { json: { status: 'in_production' } });
    assert.equal(back.status, 409);
    assert.equal(back.body.error.code, 'invalid_order_transition');
    const order = (await a.get(`/v1/orders/${orderId}`)).body;
    assert.equal(order.status, 'delivered');
    assert.deepEqual(order.events.map((e: { type: string }) => e.type), ['received', 'in_production', 'shipped', 'delivered']);
    assert.equal(order.tracking.carrier, 'UPS');
    assert.ok(order.tracking.shipped_at && order.tracking.delivered_at && order.delivered_at);

    // cancelling refunds through the processor, once
    const cart2 = await readyCart();
    const order2 = (await pay(a, cart2.id, 'ops-2')).body.order_id as string;
    const cancelled = await op.post(`/v1/admin/orders/${order2}/status`, { json: { status: 'cancelled', reason: 'customer asked' } });
    assert.equal(cancelled.status, 200, cancelled.text);
    const [charge] = await paymentsOf(cart2.id);
    assert.equal(charge.amount_refunded_cents, charge.amount_cents);
    assert.equal((await op.post(`/v1/admin/orders/${order2}/status`, { json: { status: 'refunded' } })).status, 200);
    assert.equal((await paymentsOf(cart2.id))[0].refunds.length, 1, 'one refund');
    assert.equal((await a.get(`/v1/carts/${cart2.id}`)).body.payment.status, 'refunded', 'the cart\'s payment object says refunded');

    // cart.checked_out and order.status_changed recorded for webhooks, with the objects as GET returns them
    const events = await until('the events to be relayed', async () => {
      const page = await t.service.store.documents<{ type: string; data: { id: string; status: string } }>('events').list(t.accountA, { limit: 1000 });
      const list = page.items.map((r) => r.data);
      return list.some((e) => e.type === 'order.status_changed' && e.data.id === order2 && e.data.status === 'refunded') ? list : null;
    });
    const checkedOut = events.find((e) => e.type === 'cart.checked_out' && e.data.id === cart.id);
    assert.ok(checkedOut, 'cart.checked_out');
    assert.equal(checkedOut.data.status, 'checked_out');
    assert.deepEqual(events.filter((e) => e.type === 'order.status_changed' && e.data.id === orderId).map((e) => e.data.status).sort(), ['delivered', 'in_production', 'shipped']);
    // the order event says what was bought as the order's JSON does: the part by its name, its material
    const delivered = events.find((e) => e.type === 'order.status_changed' && e.data.id === orderId && e.data.status === 'delivered') as unknown as { data: typeof order };
    assert.deepEqual(delivered.data.line_items, order.line_items, 'the event carries the line items GET returns');
    const partLine = order.line_items.find((l: { type: string }) => l.type === 'part');
    assert.equal(partLine.name, design.parts[0].name, 'named as in the design');
    assert.equal(partLine.material_id, (items[0] as { configuration: { defaults: { material_id: string } } }).configuration.defaults.material_id);
  });
});
