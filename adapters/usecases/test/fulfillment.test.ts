// Fulfillment (production speeds on business days, shipping, US sales tax) of the engine's part
// prices: the freight, zone, tax and calendar rules, and property tests over part prices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { PartPrices, ShipmentPart } from '@kerf/engine';
import { addBusinessDays, fulfill, planShipment, productionSpeeds, salesTaxCents, shippingZone, STATE_TAX_RATE_PERCENT, usShipTo } from '../src/fulfillment/index.ts';
import { stateOfZip } from '../src/fulfillment/zip-states.ts';

// A ZIP code of each state's capitol (and DC), looked up one by one, not derived from zip-states.ts
const CAPITOL_ZIP: Record<string, string> = {
  AL: '36104', AK: '99801', AZ: '85001', AR: '72201', CA: '95814', CO: '80202', CT: '06103', DE: '19901', DC: '20001', FL: '32301',
  GA: '30303', HI: '96813', ID: '83702', IL: '62701', IN: '46204', IA: '50309', KS: '66603', KY: '40601', LA: '70802', ME: '04330',
  MD: '21401', MA: '02108', MI: '48933', MN: '55102', MS: '39201', MO: '65101', MT: '59601', NE: '68508', NV: '89701', NH: '03301',
  NJ: '08608', NM: '87501', NY: '12207', NC: '27601', ND: '58501', OH: '43215', OK: '73102', OR: '97301', PA: '17101', RI: '02903',
  SC: '29201', SD: '57501', TN: '37219', TX: '78701', UT: '84111', VT: '05602', VA: '23219', WA: '98501', WV: '25301', WI: '53703',
  WY: '82001',
};

const NOW = '2026-11-23T15:00:00.000Z'; // a Monday
const TERMS = { valid_for_days: 30, expedite_fraction_per_day: 0.2 };
const NO_WORK = { bends: false, inserts: false, welds: false, finish_lead_time_days: 0, pieces: 1 };

/** Part prices as fulfillment reads them: the subtotal, the work, the shipment; no items. */
function prices(over: Partial<PartPrices> = {}): PartPrices {
  return {
    status: 'ready', items: [], requirements: [], amount_subtotal_cents: 10_000, manufacturing_warnings: [],
    production: NO_WORK, shipment: [{ mass_kg: 1, quantity: 10, dimensions_mm: [300, 200, 50] }], catalog_version: 'cat_test', terms: TERMS, ...over,
  };
}
const part = (kg: number, dims: [number, number, number], quantity = 1): ShipmentPart => ({ mass_kg: kg, quantity, dimensions_mm: dims });
const TX = usShipTo({ name: 'A. Customer', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' });

test('freight rules a real service publishes', () => {
  assert.equal(planShipment([part(1, [300, 200, 50], 10)]).requires_freight, false);
  assert.match(planShipment([part(10, [300, 200, 50], 10)]).freight_reasons[0], /over 200 lb/);
  assert.match(planShipment([part(50, [300, 200, 50])]).freight_reasons[0], /over 100 lb/);
  assert.match(planShipment([part(1, [60 * 25.4, 100, 10])]).freight_reasons[0], /60" or more/);
  assert.equal(planShipment([part(1, [59 * 25.4, 100, 10])]).requires_freight, false);
  assert.match(planShipment([part(1, [48 * 25.4, 30 * 25.4, 10])]).freight_reasons[0], /48" x 30"/);
  assert.equal(planShipment([part(1, [48 * 25.4, 29 * 25.4, 10])]).requires_freight, false);
  // a freight shipment is offered only freight
  const f = fulfill(prices({ shipment: [part(5, [1600, 700, 30])] }), usShipTo({ state: 'PA', postal_code: '15213', country: 'US' }), NOW).fulfillment;
  assert.equal(f.requires_freight, true);
  assert.ok(f.shipping_options.length > 0);
  assert.ok(f.shipping_options.every((o) => o.requires_freight && o.carrier === 'freight'));
});

test('zones grow with distance; tax by state; business days skip weekends', () => {
  assert.equal(shippingZone('OH', 'OH'), 2);
  assert.ok(shippingZone('OH', 'PA') < shippingZone('OH', 'TX'));
  assert.ok(shippingZone('OH', 'TX') < shippingZone('OH', 'CA'));
  assert.equal(shippingZone('OH', 'CA'), 8);
  assert.equal(shippingZone('OH', 'HI'), 9);
  assert.throws(() => shippingZone('OH', 'XX'));
  assert.equal(salesTaxCents('CA', 10000), 725);
  assert.equal(salesTaxCents('OR', 10000), 0);
  assert.equal(salesTaxCents('TX', 1000), 63);
  assert.throws(() => salesTaxCents('ZZ', 1));
  assert.equal(addBusinessDays('2026-11-20T10:00:00Z', 1), '2026-11-23'); // Friday -> Monday
  assert.equal(addBusinessDays('2026-11-23T10:00:00Z', 5), '2026-11-30');
  assert.equal(addBusinessDays('2026-11-23T10:00:00Z', 0), '2026-11-23');
});

test('production speeds: each kind of work adds days, expediting saves two and costs a fraction of the subtotal per day', () => {
  const days = (work: Partial<PartPrices['production']>): number => productionSpeeds(prices({ production: { ...NO_WORK, ...work } }), NOW)[0].production_days;
  assert.equal(days({}), 3);
  assert.ok(days({ bends: true }) > days({}) && days({ inserts: true }) > days({}));
  assert.equal(days({ welds: true }) - days({}), 2, 'welding adds days');
  assert.equal(days({ finish_lead_time_days: 3 }) - days({}), 3);
  assert.ok(days({ pieces: 1000 }) > days({ pieces: 10 }), 'a large run takes longer');
  const [standard, expedited] = productionSpeeds(prices(), NOW);
  assert.deepEqual(standard, { speed: 'standard', production_days: 3, estimated_ship_date: '2026-11-26', surcharge_cents: 0 });
  assert.deepEqual(expedited, { speed: 'expedited', production_days: 2, estimated_ship_date: '2026-11-25', surcharge_cents: Math.round(10_000 * 0.2 * 1) });
});

test('with a destination: options per speed, the cheapest standard one in the totals, tax on the subtotal', () => {
  const q = fulfill(prices({ production: { ...NO_WORK, bends: true } }), TX, NOW);
  const f = q.fulfillment;
  assert.deepEqual(Object.keys(f), ['production', 'shipping_status', 'shipping_options', 'requires_freight', 'freight_reasons', 'shipping_zone', 'package']);
  assert.equal(f.shipping_status, 'rated');
  assert.deepEqual(f.production.map((p) => p.speed), ['standard', 'expedited']);
  assert.ok(f.production[1].estimated_ship_date < f.production[0].estimated_ship_date);
  assert.ok(f.production[1].surcharge_cents > 0);
  assert.equal(f.shipping_options.length, 6);
  for (const o of f.shipping_options) {
    assert.match(o.id, /^shp_(standard|expedited)_/);
    assert.ok(o.estimated_delivery_date > o.planned_ship_date);
    assert.equal(o.production_surcharge_cents, f.production.find((p) => p.speed === o.production_speed)!.surcharge_cents);
    assert.equal(o.rate_source, 'kerf_table_cat_test');
  }
  assert.equal(q.amount_shipping_cents, Math.min(...f.shipping_options.filter((o) => o.production_speed === 'standard').map((o) => o.amount_cents)));
  assert.deepEqual(q.tax, { status: 'calculated', state: 'TX', rate_percent: 6.25, taxable_amount_cents: 10_000 });
  assert.equal(q.amount_tax_cents, Math.round(10_000 * 0.0625));
});

test('without a destination: shipping and tax wait for it; nothing priced, nothing to ship', () => {
  const q = fulfill(prices(), null, NOW);
  assert.equal(q.fulfillment.shipping_status, 'destination_required');
  assert.deepEqual(q.fulfillment.shipping_options, []);
  assert.deepEqual(q.tax, { status: 'destination_required', state: null, rate_percent: null, taxable_amount_cents: 0 });
  assert.deepEqual([q.amount_shipping_cents, q.amount_tax_cents], [0, 0]);
  const empty = fulfill(prices({ shipment: [], amount_subtotal_cents: 0 }), TX, NOW);
  assert.equal(empty.fulfillment.shipping_status, 'rated');
  assert.deepEqual(empty.fulfillment.shipping_options, [], 'no options for an empty shipment');
});

test('property: shipping and tax are integer cents; tax is the state\'s rate of the subtotal', () => {
  const states = Object.keys(STATE_TAX_RATE_PERCENT);
  const shipmentPart = fc.record({
    mass_kg: fc.double({ min: 0.01, max: 60, noNaN: true }), quantity: fc.integer({ min: 1, max: 500 }),
    dimensions_mm: fc.tuple(fc.double({ min: 5, max: 2000, noNaN: true }), fc.double({ min: 5, max: 1200, noNaN: true }), fc.double({ min: 0.5, max: 600, noNaN: true })),
  });
  fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.array(shipmentPart, { minLength: 1, maxLength: 4 }), fc.constantFrom(...states), (subtotal, shipment, state) => {
    const q = fulfill(prices({ amount_subtotal_cents: subtotal, shipment }), usShipTo({ state, postal_code: CAPITOL_ZIP[state], country: 'US' }), NOW);
    const ints = [q.amount_shipping_cents, q.amount_tax_cents, ...q.fulfillment.shipping_options.flatMap((o) => [o.amount_cents, o.production_surcharge_cents]), ...q.fulfillment.production.map((p) => p.surcharge_cents)];
    for (const x of ints) assert.ok(Number.isSafeInteger(x) && x >= 0, `integer cents: ${x}`);
    assert.equal(q.amount_tax_cents, salesTaxCents(state, subtotal));
    assert.ok(q.fulfillment.shipping_options.length > 0);
  }), { numRuns: 60, seed: 20261122 });
});

test('a destination outside the US or with another state or ZIP is refused by name', () => {
  const shipTo = { state: 'TX', postal_code: '78701', country: 'US' };
  const refused = (bad: object, param: string) => assert.throws(() => usShipTo({ ...shipTo, ...bad }), (e: { code?: string; param?: string }) => e.code === 'invalid_configuration' && e.param === param);
  refused({ country: 'CA' }, 'ship_to.country');
  refused({ state: 'QC' }, 'ship_to.state');
  refused({ postal_code: 'K1A 0B1' }, 'ship_to.postal_code');
  refused({ state: 'DE' }, 'ship_to.state'); // an Austin ZIP code typed with Delaware, which has no sales tax
  refused({ postal_code: '00901' }, 'ship_to.state'); // San Juan, Puerto Rico: not a state the tax knows
  assert.equal(usShipTo(null), null);
  assert.equal(usShipTo(undefined), null);
  assert.equal(usShipTo(shipTo)!.state, 'TX');
});

test('every state\'s capitol ZIP code is in that state; the prefixes carved out of a neighbour follow their own state', () => {
  assert.deepEqual(Object.keys(CAPITOL_ZIP).sort(), Object.keys(STATE_TAX_RATE_PERCENT).sort());
  for (const [state, zip] of Object.entries(CAPITOL_ZIP)) assert.equal(stateOfZip(zip), state, zip);
  assert.equal(stateOfZip('73301'), 'TX'); // Austin's IRS centre, inside Oklahoma's range
  assert.equal(stateOfZip('88510'), 'TX'); // El Paso, after New Mexico's range
  assert.equal(stateOfZip('05501'), 'MA'); // Andover, inside Vermont's range
  assert.equal(stateOfZip('20171'), 'VA'); // Herndon, between DC's prefixes
  assert.equal(stateOfZip('78701-1234'), 'TX');
  assert.equal(stateOfZip('96910'), null); // Guam
  assert.equal(stateOfZip('09001'), null); // an APO address
});
