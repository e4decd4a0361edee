// The nest for the shop as an order's production files (docs/nesting.md "Files", docs/api.md
// "Orders"), over real HTTP on the embedded store and processor: an L-shaped flat plate analysed
// from STEP is quoted at 20 and nested as its true shape (far tighter than its boxes; the served
// design never shows the outline it was nested with), the cart is paid, and the order lists every
// stock sheet of the nest as DXF and SVG behind signed links; each DXF reads clean in ezdxf with
// one part id per piece.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, saveTestCard, stepForm } from './helpers/client.ts';
import { ezdxfRead } from './helpers/ezdxf.ts';

const L_PLATE = new URL('../fixtures/sheet/plate_l_t2.step', import.meta.url).pathname;
const STEEL_2MM = 'mat_mild_steel_2_0mm';
const QUANTITY = 20;
const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
/** Utilisation of 20 of these L's packed as their bounding boxes (engine/test/nest-outline.test.ts measures it). */
const BOX_UTILISATION = 0.45;


describe('an order\'s production files: the nest of its sheet parts', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  before(async () => {
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    ({ a, b } = await clientsFor(t));
  });
  after(async () => { await t?.close(); });

  it('a paid order of 20 L plates lists each nest sheet as DXF and SVG; the DXF reads clean in ezdxf', { timeout: 240_000 }, async () => {
    const up = await a.post('/v1/analyze', { form: stepForm(L_PLATE) });
    assert.equal(up.status, 202, up.text);
    const design = await pollDesign(a, up.body.id);
    assert.ok(!JSON.stringify(design).includes('_flat_outline'), 'the served design keeps the contract\'s part shape');
    const items = [{ design_id: design.id, quantity: QUANTITY, configuration: { defaults: { material_id: STEEL_2MM } } }];
    let r = await a.post('/v1/carts', { json: { items, ship_to: TEXAS } });
    assert.equal(r.status, 201, r.text);
    const cart = r.body;
    const line = (cart.quote.items[0].line_items as any[]).find((l) => l.part_id);
    assert.ok(line.nest, 'the line is priced from a nest');
    assert.ok(line.nest.utilization > BOX_UTILISATION + 0.15, `nested as L's: utilisation ${line.nest.utilization}`);
    r = await a.request('PATCH', `/v1/carts/${cart.id}`, { json: { shipping_option_id: cart.quote.fulfillment.shipping_options[0].id } });
    assert.equal(r.status, 200, r.text);
    await saveTestCard(a);
    r = await a.post(`/v1/carts/${cart.id}/pay`, { json: { payment: { type: 'card_on_file' } }, headers: { 'idempotency-key': 'order-nest-1' } });
    assert.equal(r.status, 200, r.text);
    const orderId = r.body.order_id as string;

    r = await a.get(`/v1/orders/${orderId}/production-files`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.object, 'list');
    const files = r.body.data as Array<{ kind: string; material_id: string; sheet: number; sheet_count: number; sampled: boolean; file_name: string; content_type: string; url: string }>;
    const dxfs = files.filter((f) => f.kind === 'nest_dxf'), svgs = files.filter((f) => f.kind === 'nest_svg');
    assert.ok(dxfs.length >= 1);
    assert.equal(svgs.length, dxfs.length, 'an SVG per sheet');
    assert.equal(dxfs.length, dxfs[0].sheet_count, 'every sheet of the nest');
    assert.deepEqual(dxfs.map((f) => f.sheet), Array.from({ length: dxfs.length }, (_, i) => i + 1));
    assert.ok(files.every((f) => f.material_id === STEEL_2MM && f.sampled === false));
    assert.match(dxfs[0].file_name, /-nest-mat_mild_steel_2_0mm-sheet-1\.dxf$/);

    // another account sees none of it
    assert.equal((await b.get(`/v1/orders/${orderId}/production-files`)).status, 404);

    // the links are the credential: no key sent
    let pieces = 0;
    for (const f of dxfs) {
      const got = await fetch(new URL(f.url, t.url));
      assert.equal(got.status, 200);
      assert.match(got.headers.get('content-type') ?? '', /application\/dxf/);
      const text = await got.text();
      assert.match(text, /\$INSUNITS/);
      const read = ezdxfRead(text);
      assert.ok(read, 'python3-ezdxf reads the DXF (apt-get install python3-ezdxf; .ci/run installs it)');
      assert.equal(read.errors, 0, 'ezdxf audit');
      assert.equal(read.layers.SHEET, 1);
      assert.equal(read.layers.PART_IDS, read.texts.length);
      // each piece: its outer contour and three holes on CUT, its part id on PART_IDS
      assert.equal(read.layers.CUT, 4 * read.texts.length);
      pieces += read.texts.length;
    }
    assert.equal(pieces, QUANTITY, 'every piece of the order on the sheets');
    const svg = await fetch(new URL(svgs[0].url, t.url));
    assert.equal(svg.status, 200);
    assert.match(svg.headers.get('content-type') ?? '', /image\/svg\+xml/);
    assert.match(await svg.text(), /^<svg /);
  });
});
