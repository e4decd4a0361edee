// The dropship API over real HTTP (issue #13; docs/commerce.md "Dropship", docs/api.md "Operator actions"):
// the real service on a port, the embedded store on disk and the embedded processor. Every dropship
// route, every dropship error code, the order creation rules, contract holds,
// fulfilment with the shipping charge (and its failure), and signed deliveries checked with the
// receiver's own node:crypto HMAC. Every JSON response is checked against the OpenAPI document.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Receiver, signedWith, type Delivery } from './helpers/receiver.ts';
import { until } from './helpers/wait.ts';
import { Client, clientsFor, pollDesign, stepForm } from './helpers/client.ts';
import { randomBytes } from 'node:crypto';
import { StoreAdapter } from '@kerf/oauth';

/** The plain L bracket three times (one unique part, three instances): welded, the sample order has an assembly line. */
const SAMPLE = new URL('../fixtures/assembly/asm_achiral_mirror.step', import.meta.url).pathname;
const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const SHIP_TO = { name: 'Pat Buyer', street1: '9 Elm St', street2: null, city: 'Boulder', state: 'CO', postal_code: '80301', country: 'US', email: 'pat@example.com' };
const ACCOUNT_PHONE = '+1 512 555 0100';
const ALL_EVENTS = ['order.created', 'order.in_review', 'order.in_production', 'order.shipped', 'order.delivered', 'order.cancelled', 'order.payment_failed'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Json = Record<string, any>;

describe('dropship API', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  let op: Client;
  let sampleOrder: Json;
  let endpoint: Json;
  const rx = new Receiver();

  /** The customer saves a test card on the processor's hosted page (replacing the one on file). */
  async function useCard(accountId: string, token: string): Promise<void> {
    const url = await t.service.ctx.payments!.paymentMethodSetupUrl({ id: accountId });
    const saved = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payment_method: token }).toString() });
    assert.equal(saved.status, 200, await saved.text());
  }
  /** The processor's payments made for one dropship external_ref (parts) or order (shipping). */
  async function paymentsFor(match: (m: Record<string, string>) => boolean): Promise<Json[]> {
    const page = await t.service.store.documents<Json>('payment_intents').list('payment_processor', { limit: 1000 });
    return page.items.map((r): Json => ({ ...r.data, id: r.id })).filter((p) => match(p.metadata ?? {}));
  }
  const partsCharges = (ref: string): Promise<Json[]> => paymentsFor((m) => m.external_ref === ref && m.kind !== 'shipping');
  const order = (c: Client, body: Json, headers: Record<string, string> = {}) => c.post('/v1/dropship/orders', { json: body, headers });
  const setStatus = (accountId: string, status: string, extra: Json = {}) => op.post(`/v1/admin/dropship/accounts/${accountId}/status`, { json: { status, ...extra } });
  const move = (orderId: string, body: Json) => op.post(`/v1/admin/dropship/orders/${orderId}/status`, { json: body });
  const eventsOf = (type: string, orderId: string): Delivery[] => rx.deliveries.filter((d) => d.body.type === type && d.body.data.order.id === orderId);

  function assertError(r: { status: number; body: Json; headers: Headers }, status: number, code: string, param: string | null = null): void {
    assert.equal(r.status, status, JSON.stringify(r.body));
    const e = r.body.error;
    assert.equal(e.code, code);
    assert.equal(e.param, param);
    for (const f of ['type', 'message', 'request_id', 'doc_url']) assert.equal(typeof e[f], 'string', `error.${f}`);
    assert.equal(typeof e.retryable, 'boolean');
    assert.equal(e.request_id, r.headers.get('request-id'));
    assert.ok(e.doc_url.endsWith(code), e.doc_url);
  }

  before(async () => {
    await rx.start();
    t = await startTestService({ webhookAllowHttpLoopback: true, logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    ({ a, b } = await clientsFor(t));
    const operator = await t.service.store.accounts.create({ email: `op-${Date.now()}@test.local`, name: 'Ops', operator: true });
    op = new Client(t.url, (await t.service.store.apiKeys.create(operator.id, { operator: true }))!.api_key, a.openapi);
    // the sample order: a real commerce order of the L bracket, paid with a card on file
    const design = await pollDesign(a, (await a.post('/v1/analyze', { form: stepForm(SAMPLE) })).body.id);
    const t0 = design.parts[0].detected_thickness_mm;
    const materials = (await a.get('/v1/materials?limit=500')).body.data as Json[];
    const material = materials.filter((m) => m.bendable && m.available).sort((x, y) => Math.abs(x.thickness_mm - t0) - Math.abs(y.thickness_mm - t0))[0];
    // welded: the quote has an assembly line, the recipe of an assembly item
    const weld = { type: 'weld', weld_length_mm: 40, part_instance_ids: design.part_instances.map((i: Json) => i.id) };
    const items = [{ design_id: design.id, quantity: 2, configuration: { defaults: { material_id: material.id }, assembly_operations: [weld] } }];
    await useCard(t.accountA, 'pm_card_visa');
    const shipped = (await a.post('/v1/carts', { json: { items, ship_to: TEXAS } })).body;
    const optionId = shipped.quote.fulfillment.shipping_options[0].id;
    const cart = (await a.request('PATCH', `/v1/carts/${shipped.id}`, { json: { shipping_option_id: optionId } })).body;
    const paid = await a.post(`/v1/carts/${cart.id}/pay`, { json: { payment: { type: 'card_on_file' } }, headers: { 'idempotency-key': 'sample' } });
    assert.equal(paid.status, 200, paid.text);
    sampleOrder = (await a.get(`/v1/orders/${paid.body.order_id}`)).body;
  });
  after(async () => { await t?.close(); await rx.close(); });

  it('accounts: requested, suspended and denied are 403 dropship_account_not_approved; GET /v1/account shows the status; credentials', async () => {
    assert.equal((await a.get('/v1/account')).body.dropship, null);
    assertError(await a.get('/v1/dropship/items'), 403, 'dropship_account_not_approved');
    assertError(await a.post(`/v1/admin/dropship/accounts/${t.accountA}/status`, { json: { status: 'approved' } }), 403, 'operator_required');
    for (const status of ['requested', 'suspended', 'denied']) {
      assert.equal((await setStatus(t.accountA, status)).status, 200);
      assert.deepEqual((await a.get('/v1/account')).body.dropship, { status });
      const r = await a.get('/v1/dropship/items');
      assertError(r, 403, 'dropship_account_not_approved');
      assert.equal(r.body.error.type, 'permission_error');
      assertError(await order(a, { sku: 'X', quantity: 1, external_ref: 'x', ship_to: SHIP_TO }), 403, 'dropship_account_not_approved');
    }
    const approved = await setStatus(t.accountA, 'approved', { phone: ACCOUNT_PHONE });
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual((await a.get('/v1/account')).body.dropship, { status: 'approved' });
    assert.deepEqual((await a.get('/v1/dropship/items')).body, { items: [] });
    assertError(await b.get('/v1/dropship/items'), 403, 'dropship_account_not_approved');

    // the key as bearer, or the legacy svc_key header; missing and unknown keys are 401
    const legacy = await a.get('/v1/dropship/items', { key: null, headers: { svc_key: t.keyA } });
    assert.equal(legacy.status, 200, legacy.text);
    assertError(await a.get('/v1/dropship/items', { key: null }), 401, 'missing_api_key');
    assertError(await a.get('/v1/dropship/items', { key: 'sk_nope_0000' }), 401, 'invalid_api_key');
    assertError(await a.get('/v1/dropship/items', { key: null, headers: { svc_key: 'sk_nope_0000' } }), 401, 'invalid_api_key');
  });

  it('webhook endpoints: POST (secret once, events default all), GET without secrets, DELETE 204', async () => {
    const made = await a.post('/v1/dropship/webhook-endpoints', { json: { url: `${rx.url}/hooks` } });
    assert.equal(made.status, 201, made.text);
    endpoint = made.body;
    assert.match(endpoint.id, UUID);
    assert.match(endpoint.secret, /^whsec_/);
    assert.deepEqual(endpoint.events, ALL_EVENTS);
    assert.equal(endpoint.active, true);
    const some = await a.post('/v1/dropship/webhook-endpoints', { json: { url: `${rx.url}/shipped-only`, events: ['order.shipped'] } });
    assert.deepEqual(some.body.events, ['order.shipped']);
    const listed = await a.get('/v1/dropship/webhook-endpoints');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.endpoints.map((e: Json) => e.id).sort(), [endpoint.id, some.body.id].sort());
    assert.ok(listed.body.endpoints.every((e: Json) => !('secret' in e)), 'no secrets');
    assert.equal((await a.get('/v1/webhook-endpoints')).body.data.length, 0, 'the manufacturing list shows only its own endpoints');
    assert.equal((await a.request('DELETE', `/v1/dropship/webhook-endpoints/${some.body.id}`)).status, 204);
    assertError(await a.request('DELETE', `/v1/dropship/webhook-endpoints/${some.body.id}`), 404, 'resource_missing', 'endpoint_id');
    assert.deepEqual((await a.get('/v1/dropship/webhook-endpoints')).body.endpoints.map((e: Json) => e.id), [endpoint.id]);
    const wrong = await a.post('/v1/dropship/webhook-endpoints', { json: { url: `${rx.url}/x`, events: ['design.ready'] } });
    assert.equal(wrong.status, 422, 'a manufacturing event is not a dropship event');
    assert.match(wrong.body.error.param, /^events/);
  });

  it('items: made from the sample order\'s line as requested (403 item_not_approved), approval locks the price', async () => {
    const line = (sampleOrder.line_items as Json[]).find((l) => l.type === 'part')!;
    const made = await op.post('/v1/admin/dropship/items', { json: { order_id: sampleOrder.id, line_item_id: line.id, sku: 'BRKT-1', name: 'L bracket' } });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.account_id, t.accountA);
    assertError(await op.post('/v1/admin/dropship/items', { json: { order_id: sampleOrder.id, line_item_id: line.id, sku: 'BRKT-1' } }), 409, 'sku_taken', 'sku');
    const [item] = (await a.get('/v1/dropship/items')).body.items;
    assert.match(item.id, UUID);
    assert.equal(item.sku, 'BRKT-1');
    assert.equal(item.name, 'L bracket');
    assert.equal(item.status, 'requested');
    assert.equal(item.unit_price_cents, null);
    assert.equal(item.kind, 'part');
    assert.equal(item.assembly, null);
    assert.equal(item.part.id, line.part_id);
    assert.equal(typeof item.part.material, 'string');
    assert.equal(typeof item.part.material_type, 'string');
    assert.ok(item.part.thickness > 0);
    assertError(await order(a, { sku: 'BRKT-1', quantity: 1, external_ref: 'early', ship_to: SHIP_TO }), 403, 'item_not_approved', 'sku');

    const ok = await op.post(`/v1/admin/dropship/items/${item.id}/approve`, { json: { unit_price_cents: 1234 } });
    assert.equal(ok.status, 200, ok.text);
    const [approved] = (await a.get('/v1/dropship/items')).body.items;
    assert.equal(approved.status, 'approved');
    assert.equal(approved.unit_price_cents, 1234);
    assertError(await op.post(`/v1/admin/dropship/items/${item.id}/approve`, { json: { unit_price_cents: 999 } }), 409, 'item_price_locked', 'unit_price_cents');
    assert.equal((await a.get('/v1/dropship/items')).body.items[0].unit_price_cents, 1234, 'still locked');

    // an assembly: part_count and has_welds from the sample order's recipe, the design's file name
    const asmLine = (sampleOrder.line_items as Json[]).find((l) => l.type === 'assembly')!;
    assert.ok(asmLine, 'the welded sample order has an assembly line');
    const asm = await op.post('/v1/admin/dropship/items', { json: { order_id: sampleOrder.id, line_item_id: asmLine.id, sku: 'ASM-1' } });
    assert.equal(asm.status, 201, asm.text);
    const listed = (await a.get('/v1/dropship/items')).body.items.find((i: Json) => i.sku === 'ASM-1');
    assert.equal(listed.kind, 'assembly');
    assert.equal(listed.part, null);
    assert.deepEqual(listed.assembly, { id: asmLine.design_id, part_count: 3, has_welds: true, file_name: 'asm_achiral_mirror.step' });
    assert.equal(listed.status, 'requested');
  });

  it('orders: 201 charged once for parts at the locked price (retail never billed), phone from the account; a repeat is 200 with no second charge', async () => {
    const r = await order(a, { sku: 'BRKT-1', quantity: 3, external_ref: 'shop-1001', retail_unit_price_cents: 9999, ship_to: SHIP_TO });
    assert.equal(r.status, 201, r.text);
    const o = r.body.order;
    assert.equal(o.status, 'paid');
    assert.equal(o.external_ref, 'shop-1001');
    assert.equal(o.sku, 'BRKT-1');
    assert.equal(o.quantity, 3);
    assert.equal(o.parts_total_cents, 3 * 1234);
    assert.equal(o.retail_unit_price_cents, 9999);
    assert.equal(o.shipping.status, 'charged_at_fulfillment');
    assert.equal(o.ship_to.phone, ACCOUNT_PHONE, 'rule 6: the account\'s phone');
    assert.ok(!Number.isNaN(Date.parse(o.created_at)) && /[+-]\d\d:\d\d$|Z$/.test(o.created_at));
    const charges = await partsCharges('shop-1001');
    assert.equal(charges.length, 1);
    assert.equal(charges[0].amount_cents, 3702);
    assert.equal(charges[0].status, 'succeeded');

    const again = await order(a, { sku: 'BRKT-1', quantity: 5, external_ref: 'shop-1001', ship_to: { ...SHIP_TO, phone: '+1 303 555 0199' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.order.id, o.id);
    assert.equal(again.body.order.quantity, 3);
    assert.equal((await partsCharges('shop-1001')).length, 1, 'no second charge');

    const one = await a.get(`/v1/dropship/orders/${o.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.order.tracking, null);
    assert.deepEqual(one.body.order.charges.map((c: Json) => [c.kind, c.amount_cents, c.status]), [['parts', 3702, 'succeeded']]);
    assert.equal(one.body.order.charges[0].processor_payment_intent_id, charges[0].id);
    assert.deepEqual((await a.get('/v1/dropship/orders?external_ref=shop-1001')).body.orders.map((x: Json) => x.id), [o.id]);
    assert.deepEqual((await a.get('/v1/dropship/orders?external_ref=nope')).body.orders, []);
    assert.ok((await a.get('/v1/dropship/orders')).body.orders.some((x: Json) => x.id === o.id));
    assertError(await a.get('/v1/dropship/orders/ord_nope'), 404, 'resource_missing', 'order_id');

    // the signed order.created delivery, verified with the receiver's own HMAC
    await rx.until(() => eventsOf('order.created', o.id).length > 0, 'order.created');
    const [d] = eventsOf('order.created', o.id);
    assert.equal(d.headers['content-type'], 'application/json');
    assert.equal(d.headers['x-svc-event'], 'order.created');
    const ts = Number(d.headers['x-svc-timestamp']);
    assert.ok(Number.isInteger(ts) && Math.abs(ts - Date.now() / 1000) < 300, 'Unix seconds, recent');
    assert.match(String(d.headers['x-svc-signature']), /^v1=[0-9a-f]{64}$/);
    assert.ok(signedWith(d, endpoint.secret, d.signatures[0]), 'HMAC-SHA256 of timestamp.raw body');
    assert.ok(!signedWith(d, 'whsec_other', d.signatures[0]));
    assert.match(d.body.id, /\S/);
    assert.equal(d.body.type, 'order.created');
    assert.deepEqual(d.body.data.order, { id: o.id, external_ref: 'shop-1001', status: 'paid', sku: 'BRKT-1', quantity: 3, tracking: null, shipping_cost_cents: null });
  });

  it('orders: concurrent repeats of one external_ref make one order and one charge', async () => {
    const body = { sku: 'BRKT-1', quantity: 2, external_ref: 'shop-race', ship_to: { ...SHIP_TO, phone: '+1 720 555 0101' } };
    const all = await Promise.all(Array.from({ length: 6 }, () => order(a, body)));
    assert.deepEqual(all.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 201], all.map((r) => r.text).join('\n'));
    assert.equal(new Set(all.map((r) => r.body.order.id)).size, 1);
    assert.equal((await partsCharges('shop-race')).length, 1);
    assert.equal(all[0].body.order.ship_to.phone, '+1 720 555 0101');
  });

  it('orders: 404 unknown_sku, 422 unsupported_country, 402 card_declined / payment_not_completed with no order, 409 no_payment_method', async () => {
    const base = { sku: 'BRKT-1', quantity: 1, ship_to: SHIP_TO };
    const unknown = await order(a, { ...base, sku: 'NOPE', external_ref: 'e-404' });
    assertError(unknown, 404, 'unknown_sku', 'sku');
    assert.equal(unknown.body.error.type, 'not_found_error');
    assertError(await order(a, { ...base, external_ref: 'e-422', ship_to: { ...SHIP_TO, country: 'CA' } }), 422, 'unsupported_country', 'ship_to.country');
    assertError(await order(a, { ...base, external_ref: 'e-422-zip', ship_to: { ...SHIP_TO, state: 'WY' } }), 422, 'parameter_invalid', 'ship_to.state'); // a Colorado ZIP code

    await useCard(t.accountA, 'pm_card_chargeDeclinedInsufficientFunds');
    const declined = await order(a, { ...base, external_ref: 'e-402' });
    assertError(declined, 402, 'card_declined');
    assert.match(declined.body.error.message, /insufficient funds/);
    assert.deepEqual((await a.get('/v1/dropship/orders?external_ref=e-402')).body.orders, [], 'no order');
    await useCard(t.accountA, 'pm_card_authenticationRequired');
    assertError(await order(a, { ...base, external_ref: 'e-402' }), 402, 'payment_not_completed');
    assert.deepEqual((await a.get('/v1/dropship/orders?external_ref=e-402')).body.orders, []);

    await (t.service.ctx.payments as unknown as { detachPaymentMethods(id: string): Promise<void> }).detachPaymentMethods(t.accountA);
    assertError(await order(a, { ...base, external_ref: 'e-402' }), 409, 'no_payment_method');

    await useCard(t.accountA, 'pm_card_visa');
    const paid = await order(a, { ...base, external_ref: 'e-402' });
    assert.equal(paid.status, 201, 'the same external_ref orders once a card pays');
    assert.deepEqual((await partsCharges('e-402')).map((p) => p.status).sort(), ['failed', 'requires_action', 'succeeded'], 'one payment per attempt, one succeeded');
  });

  it('orders: a processing payment answers 409 dropship_payment_processing; a repeat of the external_ref gets the order once it succeeds, one charge', async () => {
    await useCard(t.accountA, 'pm_card_processingThenSucceeds');
    const body = { sku: 'BRKT-1', quantity: 1, external_ref: 'proc-1', ship_to: SHIP_TO };
    const first = await order(a, body);
    assertError(first, 409, 'dropship_payment_processing');
    assert.equal(first.body.error.retryable, true);
    const made = await until('the payment to succeed', async () => {
      const r = await order(a, body);
      return r.status === 409 ? null : r;
    });
    assert.equal(made.status, 201, made.text);
    assert.equal((await order(a, body)).status, 200);
    assert.deepEqual((await partsCharges('proc-1')).map((p) => p.status), ['succeeded']);
    await useCard(t.accountA, 'pm_card_visa');
  });

  it('an agent\'s OAuth token is refused: the dropship API takes the API key', async () => {
    const grantId = randomBytes(16).toString('base64url');
    const token = randomBytes(32).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + 900;
    await new StoreAdapter(t.service.store, 'Grant').upsert(grantId, { jti: grantId, kind: 'Grant', accountId: t.accountA, clientId: 'svc-agent', exp }, 900);
    await new StoreAdapter(t.service.store, 'AccessToken').upsert(token, { jti: token, kind: 'AccessToken', accountId: t.accountA, grantId, clientId: 'svc-agent', scope: 'designs dfm quotes carts orders webhooks payments', exp }, 900);
    assertError(await a.get('/v1/dropship/items', { key: token }), 403, 'api_key_required');
  });

  it('fulfilment: in_review, in_production, shipped (tracking, shipping charged to the same card), delivered; each event delivered', async () => {
    const o = (await order(a, { sku: 'BRKT-1', quantity: 1, external_ref: 'ful-1', ship_to: SHIP_TO })).body.order;
    assertError(await a.post(`/v1/admin/dropship/orders/${o.id}/status`, { json: { status: 'in_review' } }), 403, 'operator_required');
    assert.equal((await move(o.id, { status: 'in_review' })).body.status, 'in_review');
    assert.equal((await move(o.id, { status: 'in_production' })).body.status, 'in_production');
    const tracking = { carrier: 'UPS', number: '1Z999AA10123456784', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' };
    assertError(await move(o.id, { status: 'shipped', tracking }), 422, 'parameter_missing', 'shipping_cost_cents');
    const shipped = await move(o.id, { status: 'shipped', tracking, shipping_cost_cents: 850 });
    assert.equal(shipped.status, 200, shipped.text);
    const read = (await a.get(`/v1/dropship/orders/${o.id}`)).body.order;
    assert.equal(read.status, 'shipped');
    assert.deepEqual(read.tracking, tracking);
    assert.deepEqual(read.charges.map((c: Json) => [c.kind, c.amount_cents, c.status]), [['parts', 1234, 'succeeded'], ['shipping', 850, 'succeeded']]);
    const shipping = await paymentsFor((m) => m.dropship_order_id === o.id && m.kind === 'shipping');
    const parts = await partsCharges('ful-1');
    assert.equal(shipping.length, 1);
    assert.equal(shipping[0].payment_method, parts[0].payment_method, 'the same card');
    assert.equal((await move(o.id, { status: 'delivered' })).body.status, 'delivered');
    assertError(await move(o.id, { status: 'in_production' }), 409, 'invalid_order_transition', 'status');

    await rx.until(() => eventsOf('order.delivered', o.id).length > 0, 'order.delivered');
    for (const type of ['order.created', 'order.in_review', 'order.in_production', 'order.shipped', 'order.delivered']) assert.equal(eventsOf(type, o.id).length >= 1, true, type);
    const s = eventsOf('order.shipped', o.id)[0];
    assert.ok(signedWith(s, endpoint.secret, s.signatures[0]));
    assert.deepEqual(s.body.data.order, { id: o.id, external_ref: 'ful-1', status: 'shipped', sku: 'BRKT-1', quantity: 1, tracking, shipping_cost_cents: 850 });
  });

  it('fulfilment: a declined shipping charge emits order.payment_failed and the order still ships; cancel refunds the parts', async () => {
    const o = (await order(a, { sku: 'BRKT-1', quantity: 2, external_ref: 'ful-fail', ship_to: SHIP_TO })).body.order;
    await useCard(t.accountA, 'pm_card_chargeDeclined');
    const shipped = await move(o.id, { status: 'shipped', tracking: { carrier: 'USPS', number: '9400100000000000000000' }, shipping_cost_cents: 700 });
    assert.equal(shipped.status, 200, shipped.text);
    assert.equal(shipped.body.status, 'shipped');
    assert.deepEqual(shipped.body.shipping, { status: 'failed', amount_cents: 700 });
    await rx.until(() => eventsOf('order.payment_failed', o.id).length > 0, 'order.payment_failed');
    const f = eventsOf('order.payment_failed', o.id)[0];
    assert.ok(signedWith(f, endpoint.secret, f.signatures[0]));
    assert.deepEqual(f.body.data, { order: { id: o.id, external_ref: 'ful-fail', status: 'shipped' }, charge: { kind: 'shipping', amount_cents: 700, error: 'generic_decline' } });
    await useCard(t.accountA, 'pm_card_visa');

    const c = (await order(a, { sku: 'BRKT-1', quantity: 1, external_ref: 'ful-cancel', ship_to: SHIP_TO })).body.order;
    const cancelled = await move(c.id, { status: 'cancelled', reason: 'customer asked' });
    assert.equal(cancelled.status, 200, cancelled.text);
    const [charge] = await partsCharges('ful-cancel');
    assert.equal(charge.amount_refunded_cents, charge.amount_cents);
    assert.equal((await a.get(`/v1/dropship/orders/${c.id}`)).body.order.charges[0].status, 'refunded');
    await rx.until(() => eventsOf('order.cancelled', c.id).length > 0, 'order.cancelled');
  });

  it('contract items: orders allocate the committed (paid) quantity with no parts charge, held until the factory release', async () => {
    const line = (sampleOrder.line_items as Json[]).find((l) => l.type === 'part')!;
    const item = (await op.post('/v1/admin/dropship/items', { json: { order_id: sampleOrder.id, line_item_id: line.id, sku: 'BRKT-C' } })).body;
    assert.equal((await op.post(`/v1/admin/dropship/items/${item.id}/approve`, { json: { unit_price_cents: 1000, committed_quantity: 5 } })).status, 200);
    const r = await order(a, { sku: 'BRKT-C', quantity: 3, external_ref: 'ctr-1', ship_to: SHIP_TO });
    assert.equal(r.status, 201, r.text);
    const o = r.body.order;
    assert.equal(o.production_hold, true);
    assert.deepEqual(o.charges, []);
    assert.equal((await partsCharges('ctr-1')).length, 0, 'no parts charge');
    assert.equal((await order(a, { sku: 'BRKT-C', quantity: 3, external_ref: 'ctr-1', ship_to: SHIP_TO })).status, 200, 'a repeat allocates nothing more');
    assertError(await order(a, { sku: 'BRKT-C', quantity: 3, external_ref: 'ctr-2', ship_to: SHIP_TO }), 409, 'contract_quantity_exhausted', 'quantity');
    assert.equal((await order(a, { sku: 'BRKT-C', quantity: 2, external_ref: 'ctr-2', ship_to: SHIP_TO })).status, 201, 'the 2 units left');

    const tracking = { carrier: 'UPS', number: '1Z1' };
    assertError(await move(o.id, { status: 'shipped', tracking, shipping_cost_cents: 500 }), 409, 'order_on_production_hold', 'status');
    const released = await op.post(`/v1/admin/dropship/orders/${o.id}/release`);
    assert.equal(released.status, 200, released.text);
    assert.equal(released.body.production_hold, false);
    assert.equal(released.body.status, 'in_production');
    const shipped = await move(o.id, { status: 'shipped', tracking, shipping_cost_cents: 500 });
    assert.deepEqual(shipped.body.charges.map((c: Json) => [c.kind, c.amount_cents]), [['shipping', 500]]);
    await rx.until(() => eventsOf('order.in_production', o.id).length > 0, 'order.in_production after the release');

    // a cancelled contract order gives its units back
    assertError(await order(a, { sku: 'BRKT-C', quantity: 1, external_ref: 'ctr-3', ship_to: SHIP_TO }), 409, 'contract_quantity_exhausted', 'quantity');
    const second = (await a.get('/v1/dropship/orders?external_ref=ctr-2')).body.orders[0];
    assert.equal((await move(second.id, { status: 'cancelled' })).status, 200);
    assert.equal((await order(a, { sku: 'BRKT-C', quantity: 2, external_ref: 'ctr-3', ship_to: SHIP_TO })).status, 201);
  });

  it('DELETE the endpoint: no more deliveries to it', async () => {
    assert.equal((await a.request('DELETE', `/v1/dropship/webhook-endpoints/${endpoint.id}`)).status, 204);
    assert.deepEqual((await a.get('/v1/dropship/webhook-endpoints')).body.endpoints, []);
    const o = (await order(a, { sku: 'BRKT-1', quantity: 1, external_ref: 'after-delete', ship_to: SHIP_TO })).body.order;
    // once the relay has handed the event on (the order's outbox cleared: it was recorded with the
    // order, before the 201), nothing was scheduled for the deleted endpoint
    await until('the event to be handed on', async () => (await t.service.store.outbox.pending({ limit: 1000 })).every((e) => e.resourceId !== o.id));
    const kept = await t.service.store.documents<Json>('events').list(t.accountA, { limit: 1000 });
    assert.ok(!kept.items.some((r) => r.data.type === 'order.created' && r.data.data.order.id === o.id), 'no endpoint wants it: not kept');
    const deliveries = await t.service.store.documents<Json>('webhook_deliveries').list(t.accountA, { limit: 1000, filter: { _endpoint_id: endpoint.id } });
    assert.ok(deliveries.items.every((r) => r.data.event_type !== 'order.created' || !rx.deliveries.some((d) => d.body.id === r.data.event_id && d.body.data.order.id === o.id)));
    assert.equal(eventsOf('order.created', o.id).length, 0);
  });
});
