// Buying an assembly with its fasteners in it (issue 32, items 1 and 2; README "Buy an assembly with
// its fasteners"): one bracket and four M4 rivet nuts named in Russian (fixtures/hardware) quotes
// ready by REST, by MCP and on the web site: the rivet nuts are shown, counted and left out, never
// priced; a part put back in blocks; a part left out by the caller is not made; an unpriced item's
// amounts are integers (existing clients read them as int). Every REST response is checked against
// /v1/openapi.json by the client.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client as McpClient, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, stepForm } from './helpers/client.ts';
import { launchBrowser } from './helpers/browser.ts';

const RIVET_NUTS = new URL('../fixtures/hardware/asm_plate_rivet_nuts.step', import.meta.url).pathname;
const FUSED_PEM = new URL('../fixtures/hardware/plate_fused_pem.step', import.meta.url).pathname;
const STEEL_2MM = 'mat_mild_steel_2_0mm';

describe('an assembly with bought-in hardware is bought by REST, MCP and the web', () => {
  let t: TestService;
  let a: Client;
  let design: any;
  const bracket = () => design.parts.find((p: any) => !p.bought_in);
  const nut = () => design.parts.find((p: any) => p.bought_in);

  before(async () => {
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    ({ a } = await clientsFor(t));
    const r = await a.post('/v1/analyze', { form: stepForm(RIVET_NUTS), headers: { prefer: 'wait=120' } });
    assert.equal(r.status, 200, r.text);
    design = r.body;
  });
  after(async () => { await t?.close(); });

  it('REST: the rivet nuts are bought-in, counted, left out; the quote is ready', { timeout: 180_000 }, async () => {
    assert.equal(design.parts.length, 2);
    assert.deepEqual([nut().bought_in.kind, nut().bought_in.size, nut().instance_count], ['rivet_nut', 'M4', 4]);
    const q = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 2, configuration: { parts: [{ part_id: bracket().id, material_id: STEEL_2MM }] } }] } });
    assert.equal(q.status, 201, q.text);
    assert.equal(q.body.status, 'ready', JSON.stringify(q.body.items[0].dfm.parts.map((p: any) => p.issues)));
    const [item] = q.body.items;
    assert.deepEqual(item.line_items.map((l: any) => l.part_id), [bracket().id], 'a line item for the bracket only');
    const left = item.dfm.parts.find((p: any) => p.part_id === nut().id);
    assert.equal(left.left_out.reason, 'bought_in');
    assert.equal(left.issues[0].code, 'part_left_out');
    assert.ok(q.body.amount_subtotal_cents > 0);
  });

  it('REST: put back in, it blocks (a rivet nut is not sheet metal) and the blocked item still carries integer amounts', { timeout: 180_000 }, async () => {
    const q = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 1, configuration: { parts: [{ part_id: bracket().id, material_id: STEEL_2MM }, { part_id: nut().id, left_out: false }] } }] } });
    assert.equal(q.status, 201, q.text);
    assert.equal(q.body.status, 'blocked');
    const [item] = q.body.items;
    for (const k of ['unit_amount_cents', 'amount_cents', 'assembly_operations_amount_cents']) assert.ok(Number.isInteger(item[k]), `${k}: ${item[k]}`);
    const needs = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 1, configuration: {} }] } });
    assert.equal(needs.body.status, 'requires_input');
    for (const k of ['unit_amount_cents', 'amount_cents', 'assembly_operations_amount_cents']) assert.equal(needs.body.items[0][k], 0, k);
    const wrong = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: { parts: [{ part_id: nut().id, left_out: 'yes' }] } } });
    assert.equal(wrong.status, 422, wrong.text);
  });

  it('REST: press-in hardware modelled into a sheet: the flat gets its mounting holes, installed and priced by default', { timeout: 180_000 }, async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(FUSED_PEM), headers: { prefer: 'wait=120' } });
    const [cover] = r.body.parts;
    assert.deepEqual(cover.holes.map((h: any) => h.diameter_mm).sort(), [4.22, 4.22, 5.41, 5.41]);
    const q = await a.post('/v1/quotes', { json: { items: [{ design_id: r.body.id, quantity: 1, configuration: { defaults: { material_id: 'mat_mild_steel_1_5mm' } } }] } });
    assert.equal(q.body.status, 'ready', q.text);
    const entry = q.body.items[0].dfm.configuration.parts.find((p: any) => p.part_id === cover.id);
    assert.deepEqual([entry.nuts.length, entry.standoffs.length], [2, 2]);
  });

  it('MCP: inspect_design says the rivet nuts are bought-in; quote_designs is ready', { timeout: 180_000 }, async () => {
    const client = new McpClient({ name: 'kerf-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${t.keyA}` } } }));
    try {
      const inspect = (await client.callTool({ name: 'inspect_design', arguments: { design_id: design.id } })) as CallToolResult;
      assert.ok(!inspect.isError, JSON.stringify(inspect.content));
      assert.match((inspect.content[0] as { text: string }).text, /x4.*BOUGHT-IN M4 rivet nut: left out of the job/);
      const quote = (await client.callTool({ name: 'quote_designs', arguments: { operation_key: `hw-${Date.now()}`, items: [{ design_id: design.id, quantity: 1, configuration: { parts: [{ part_id: bracket().id, material_id: STEEL_2MM }] } }] } })) as CallToolResult;
      assert.ok(!quote.isError, JSON.stringify(quote.content));
      assert.equal((quote.structuredContent as any).status, 'ready');
      assert.match((quote.content[0] as { text: string }).text, /part_left_out/);
    } finally { await client.close(); }
  });

  it('web: the design page shows the rivet nuts left out with their count; the quote page lists them, unpriced', { timeout: 300_000 }, async () => {
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const page = await browser.newPage();
      // a loaded machine (two cores, several browsers) is slow to sign up and render the 3D viewers
      page.setDefaultTimeout(120_000);
      await page.goto(`${t.url}/signup?next=%2Faccount`);
      await page.getByLabel('Email').fill(`hardware-${Date.now()}@example.com`);
      await page.getByLabel(/Password/).fill('correct horse battery');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(/\/account$/);
      await page.goto(`${t.url}/designs/new`);
      await page.setInputFiles('#file', RIVET_NUTS);
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.waitForURL(/\/designs\/des_/);
      await page.locator('#configure-section').waitFor({ timeout: 180_000 });
      const text = await page.locator('main').innerText();
      assert.match(text, /4 in the design · bought-in hardware \(M4 rivet nut\): left out of the job/);
      // the 3D viewers keep the layout moving while they load: submit the form as its button would
      await Promise.all([page.waitForURL(/\/quotes\/quo_/, { timeout: 180_000 }), page.evaluate(() => (document.getElementById('configure') as HTMLFormElement).requestSubmit())]);
      assert.equal(await page.locator('#quote-status').innerText(), 'This quote is ready to order.');
      const row = page.locator('#prices tr.left-out');
      assert.equal(await row.count(), 1);
      assert.match(await row.innerText(), /Left out: bought-in M4 rivet nut\s+4\s+-\s+not made here/);
      assert.doesNotMatch(await page.locator('#quote-subtotal').innerText(), /\$0\.00/);
    } finally { await browser?.close(); }
  });
});
