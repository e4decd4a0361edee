// The quote object the quotes use case composes of the engine's part prices and the fulfillment of
// its destination: the contract's fields in the contract's order (docs/api.md "Quotes"), its totals,
// validity and, presented, its URLs.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyze, defaultCatalog, partPrices, type Design, type PartPrices } from '@kerf/engine';
import type { Links } from '../src/core/index.ts';
import { fulfill, usShipTo } from '../src/fulfillment/index.ts';
import { composeQuote, presentQuote } from '../src/quotes/quote-object.ts';

const NOW = '2026-11-23T15:00:00.000Z';
const FIXTURE = new URL('../../../fixtures/sheet/l_t2_r2.step', import.meta.url);
const catalog = defaultCatalog();
const base = 'https://kerf.test';
const links: Links = {
  design: (d) => `${base}/designs/${d}`, designModel: (d) => `${base}/designs/${d}/model`, designImage: (d) => `${base}/designs/${d}/image`,
  partModel: (d, p, v) => `${base}/designs/${d}/parts/${p}/model?view=${v}`, partImage: (d, p) => `${base}/designs/${d}/parts/${p}/image`,
  dfmPartImage: (r, p) => `${base}/dfm/${r}/parts/${p}/image`, dfmBendStepImage: (r, p, n) => `${base}/dfm/${r}/parts/${p}/bend-steps/${n}/image`, quote: (q) => `${base}/quotes/${q}`, catalog: (c) => `${base}/${c}`,
  hardwareModel: (k, i) => `${base}/${k}/${i}/model`, download: (t) => `${base}/downloads/${t}`, reviewPage: (r) => `${base}/review/${r}`,
  cart: (c) => `${base}/carts/${c}`, cartPage: (t) => `${base}/checkout/${t}`, order: (o) => `${base}/orders/${o}`,
};

let design: Design;
const price = (configuration: Record<string, unknown>): PartPrices =>
  partPrices({ items: [{ design_id: design.id, quantity: 10, configuration }] }, { [design.id]: design }, catalog, { now: NOW, dfmIds: ['dfm_q0'] });

before(async () => { design = await analyze(new Uint8Array(readFileSync(FIXTURE)), { fileName: 'l.step', createdAt: NOW }); });

test('the contract\'s fields in its order; totals add up; good for the catalog\'s days', () => {
  const prices = price({ defaults: { material_id: 'mat_mild_steel_2_0mm' } });
  const q = composeQuote('quo_x', NOW, prices, fulfill(prices, usShipTo({ state: 'TX', postal_code: '78701', country: 'US' }), NOW));
  // `_`-prefixed keys are the record's own (publicView drops them before anything is served)
  assert.deepEqual(Object.keys(q).filter((k) => !k.startsWith('_')), [
    'id', 'object', 'status', 'status_url', 'design_id', 'currency', 'amount_subtotal_cents', 'amount_shipping_cents', 'amount_tax_cents', 'amount_total_cents',
    'tax', 'items', 'requirements', 'fulfillment', 'manufacturing_warnings', 'production_files', 'error', 'catalog_version', 'created_at', 'expires_at',
  ]);
  assert.deepEqual([q.id, q.object, q.status, q.status_url, q.design_id, q.currency, q.error], ['quo_x', 'quote', 'ready', null, design.id, 'usd', null]);
  assert.equal(q.amount_subtotal_cents, prices.amount_subtotal_cents);
  assert.ok(q.amount_shipping_cents > 0 && q.amount_tax_cents > 0);
  assert.equal(q.amount_total_cents, q.amount_subtotal_cents + q.amount_shipping_cents + q.amount_tax_cents);
  assert.strictEqual(q.items, prices.items, 'the items are the engine\'s, as priced');
  assert.equal(q.catalog_version, catalog.version);
  assert.equal(q.created_at, NOW);
  assert.equal(q.expires_at, '2026-12-23T15:00:00.000Z');
});

test('presented: its status URL, each report\'s image URLs and each requirement\'s catalog URL', () => {
  const prices = price({});
  const q = presentQuote(links, composeQuote('quo_y', NOW, prices, fulfill(prices, null, NOW)));
  assert.equal(q.status, 'requires_input');
  assert.equal(q.status_url, `${base}/quotes/quo_y`);
  assert.deepEqual(q.requirements.map((r) => [r.field, r.allowed_values_url]), [['material_id', `${base}/materials`]]);
  assert.ok(q.requirements.every((r) => !('catalog' in r)), 'the catalog reference became its URL');
  assert.deepEqual(q.items[0].requirements, q.requirements);
  assert.deepEqual(q.items[0].dfm.parts.map((p) => p.image_url), design.parts.map((p) => `${base}/dfm/dfm_q0/parts/${p.id}/image`));
  assert.deepEqual([q.amount_subtotal_cents, q.amount_total_cents], [0, 0]);
});
