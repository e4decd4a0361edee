// The nest for the shop on every surface (docs/nesting.md "An order's files", "A DFM report's
// nest"), on the real service over HTTP: a person signed up on the web site pays for 20 L plates
// (fixtures/sheet/plate_l_t2.step, nested as their true shape); an agent reads the order's nest files
// through the MCP SDK's client, the person sees them on the order page, and a DFM report of the
// same design answers its nest at a quantity (GET /v1/dfm/{dfm_id}/nest). Every DXF is read back by ezdxf (clean audit, one part
// id per piece).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client as McpClient, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, saveTestCard, stepForm } from './helpers/client.ts';
import { webSession } from './helpers/web-session.ts';
import { ezdxfRead } from './helpers/ezdxf.ts';

const L_PLATE = new URL('../fixtures/sheet/plate_l_t2.step', import.meta.url).pathname;
/** U channel x4 in 1.5 mm, bracket A and its two mirrors in 2 mm (fixtures/truth.json). */
const INSTANCED = new URL('../fixtures/assembly/asm_instanced_products.step', import.meta.url).pathname;
const MATERIAL_BY_THICKNESS: Record<string, string> = { '1.5': 'mat_mild_steel_1_5mm', '2': 'mat_mild_steel_2_0mm' };
const STEEL_2MM = 'mat_mild_steel_2_0mm';
const QUANTITY = 20;
const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
/** Each placed L: its outer contour and its three holes on CUT. */
const CUT_PER_PIECE = 4;

interface ProductionFile { kind: string; material_id: string; sheet: number; sheet_count: number; sampled: boolean; file_name: string; content_type: string; url: string }

/** The pieces placed on a nest sheet's DXF behind a signed link (no credential sent), its audit clean. */
async function dxfPieces(base: string, url: string, cutPerPiece: number | null = CUT_PER_PIECE): Promise<number> {
  const got = await fetch(new URL(url, base));
  assert.equal(got.status, 200, url);
  assert.match(got.headers.get('content-type') ?? '', /application\/dxf/);
  const read = ezdxfRead(await got.text());
  assert.ok(read, 'python3-ezdxf reads the DXF (apt-get install python3-ezdxf; .ci/run installs it)');
  assert.equal(read.errors, 0, 'ezdxf audit');
  assert.equal(read.layers.SHEET, 1);
  assert.equal(read.layers.PART_IDS, read.texts.length);
  if (cutPerPiece !== null) assert.equal(read.layers.CUT, cutPerPiece * read.texts.length);
  else assert.ok(read.layers.CUT >= read.texts.length, 'a cut contour per piece at least');
  return read.texts.length;
}

async function mcpConnect(url: string, key: string): Promise<McpClient> {
  const client = new McpClient({ name: 'kerf-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

describe('the nest for the shop: MCP, the web order page, a DFM report', () => {
  let t: TestService;
  let web: { cookie: string; csrf: string; email: string };
  let buyer: Client;
  let other: Client;
  let agent: McpClient;
  let stranger: McpClient;
  let designId = '';
  let orderId = '';
  let restFiles: ProductionFile[] = [];
  let utilization = 0;

  before(async () => {
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    web = await webSession(t);
    // the person's own API key: the order is theirs on the web site, over REST and over MCP
    const account = await t.service.store.accounts.findByEmail(web.email);
    const key = (await t.service.store.apiKeys.create(account!.id))!.api_key;
    const { a, b } = await clientsFor({ ...t, keyA: key });
    buyer = a; other = b;
    agent = await mcpConnect(t.url, key);
    stranger = await mcpConnect(t.url, t.keyB);

    const up = await buyer.post('/v1/analyze', { form: stepForm(L_PLATE) });
    assert.equal(up.status, 202, up.text);
    designId = (await pollDesign(buyer, up.body.id, 120_000)).id;
    const items = [{ design_id: designId, quantity: QUANTITY, configuration: { defaults: { material_id: STEEL_2MM } } }];
    let r = await buyer.post('/v1/carts', { json: { items, ship_to: TEXAS } });
    assert.equal(r.status, 201, r.text);
    const cart = r.body;
    utilization = (cart.quote.items[0].line_items as any[]).find((l) => l.part_id).nest.utilization;
    r = await buyer.request('PATCH', `/v1/carts/${cart.id}`, { json: { shipping_option_id: cart.quote.fulfillment.shipping_options[0].id } });
    assert.equal(r.status, 200, r.text);
    await saveTestCard(buyer);
    r = await buyer.post(`/v1/carts/${cart.id}/pay`, { json: { payment: { type: 'card_on_file' } }, headers: { 'idempotency-key': 'nest-surfaces-1' } });
    assert.equal(r.status, 200, r.text);
    orderId = r.body.order_id as string;
    r = await buyer.get(`/v1/orders/${orderId}/production-files`);
    assert.equal(r.status, 200, r.text);
    restFiles = r.body.data as ProductionFile[];
    assert.ok(restFiles.length >= 2, 'the order has nest files');
  }, { timeout: 240_000 });
  after(async () => {
    await agent?.close();
    await stranger?.close();
    await t?.close();
  });

  it('MCP: get_order_production_files lists the order\'s nest files and shows each sheet', { timeout: 120_000 }, async () => {
    assert.ok((await agent.listTools()).tools.some((x) => x.name === 'get_order_production_files'));
    const r = (await agent.callTool({ name: 'get_order_production_files', arguments: { order_id: orderId } })) as CallToolResult;
    assert.ok(!r.isError, JSON.stringify(r.content).slice(0, 400));
    const list = r.structuredContent as { object: string; data: ProductionFile[] };
    assert.equal(list.object, 'list');
    // the REST list's objects (the signed links are made anew per call)
    const withoutUrl = (f: ProductionFile): Omit<ProductionFile, 'url'> => { const { url: _u, ...rest } = f; return rest; };
    assert.deepEqual(list.data.map(withoutUrl), restFiles.map(withoutUrl));
    const text = (r.content[0] as { text: string }).text;
    assert.match(text, new RegExp(`utilisation ${Math.round(utilization * 1000) / 10} %`));
    // each sheet's picture as SVG under the link it downloads from
    const pictures = r.content.filter((c) => c.type === 'resource') as Array<{ resource: { uri: string; mimeType: string; text: string } }>;
    const sheets = list.data.filter((f) => f.kind === 'nest_dxf');
    assert.equal(pictures.length, sheets.length, 'a picture per sheet');
    for (const p of pictures) {
      assert.equal(p.resource.mimeType, 'image/svg+xml');
      const got = await fetch(p.resource.uri);
      assert.equal(got.status, 200);
      assert.equal(await got.text(), p.resource.text, 'the picture is the file its link serves');
    }
    let pieces = 0;
    for (const f of sheets) pieces += await dxfPieces(t.url, f.url);
    assert.equal(pieces, QUANTITY, 'every piece of the order on the sheets');

    // another account's order is not found, with the contract's error
    const refused = (await stranger.callTool({ name: 'get_order_production_files', arguments: { order_id: orderId } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.equal((refused.structuredContent as { error: { code: string } }).error.code, 'resource_missing');
  });

  it('web: the order page draws each nest sheet and links its DXF and SVG', { timeout: 120_000 }, async () => {
    const r = await fetch(`${t.url}/orders/${orderId}`, { headers: { cookie: web.cookie } });
    assert.equal(r.status, 200);
    const page = await r.text();
    const section = /<section id="nest">([\s\S]*?)<\/section>/.exec(page)?.[1];
    assert.ok(section, 'the order page has a nest section');
    assert.match(section, new RegExp(`data-material-id="${STEEL_2MM}"`));
    assert.match(section, new RegExp(`Utilisation ${Math.round(utilization * 1000) / 10} %`));
    const svgs = section.match(/<svg [\s\S]*?<\/svg>/g) ?? [];
    const sheets = restFiles.filter((f) => f.kind === 'nest_dxf');
    assert.equal(svgs.length, sheets.length, 'every sheet drawn');
    assert.ok(svgs.every((s) => !/style=|<script|\son\w+=/i.test(s)), 'nothing the CSP refuses');
    const unescape = (h: string): string => h.replace(/&amp;/g, '&');
    const dxfLinks = [...section.matchAll(/class="nest-dxf" href="([^"]+)"/g)].map((m) => unescape(m[1]));
    const svgLinks = [...section.matchAll(/class="nest-svg" href="([^"]+)"/g)].map((m) => unescape(m[1]));
    assert.equal(dxfLinks.length, sheets.length, 'a DXF link per sheet');
    assert.equal(svgLinks.length, sheets.length, 'an SVG link per sheet');
    let pieces = 0;
    for (const l of dxfLinks) pieces += await dxfPieces(t.url, l);
    assert.equal(pieces, QUANTITY);
    const svg = await fetch(new URL(svgLinks[0], t.url));
    assert.equal(svg.status, 200);
    assert.match(svg.headers.get('content-type') ?? '', /image\/svg\+xml/);
    // the stranger's session sees no order
    const strangerPage = await fetch(`${t.url}/orders/${orderId}`, { headers: { cookie: (await webSession(t)).cookie } });
    assert.equal(strangerPage.status, 404);
  });

  it('a DFM report answers its nest at a quantity, as the quote of that quantity is priced from', { timeout: 180_000 }, async () => {
    let r = await buyer.post('/v1/dfm', { json: { design_id: designId, configuration: { defaults: { material_id: STEEL_2MM } }, generate_production_files: false } });
    assert.equal(r.status, 201, r.text);
    const dfmId = r.body.id as string;
    const before = JSON.stringify((await buyer.get(`/v1/dfm/${dfmId}`)).body);

    r = await buyer.get(`/v1/dfm/${dfmId}/nest?quantity=${QUANTITY}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.object, 'dfm_nest');
    assert.equal(r.body.dfm_id, dfmId);
    assert.equal(r.body.design_id, designId);
    assert.equal(r.body.quantity, QUANTITY);
    assert.equal(r.body.nests.length, 1);
    const [nest] = r.body.nests as Array<{ material_id: string; utilization: number; sheet_count: number; sampled: boolean }>;
    assert.equal(nest.material_id, STEEL_2MM);
    assert.equal(nest.utilization, utilization, 'the nest the quote of 20 was priced from');
    assert.equal(nest.sampled, false);
    const files = r.body.production_files as ProductionFile[];
    assert.deepEqual(files.map((f) => `${f.kind} ${f.sheet}/${f.sheet_count}`), restFiles.map((f) => `${f.kind} ${f.sheet}/${f.sheet_count}`), 'the order\'s sheets');
    assert.match(files[0].file_name, new RegExp(`^${dfmId}-q${QUANTITY}-nest-${STEEL_2MM}-sheet-1\\.dxf$`));
    let pieces = 0;
    for (const f of files.filter((x) => x.kind === 'nest_dxf')) pieces += await dxfPieces(t.url, f.url);
    assert.equal(pieces, QUANTITY);
    const svg = await fetch(new URL(files.find((f) => f.kind === 'nest_svg')!.url, t.url));
    assert.equal(svg.status, 200);
    assert.match(await svg.text(), /^<svg /);

    // an agent asks get_dfm for the same nest: the files as resource links, the utilisation in the text
    const viaMcp = (await agent.callTool({ name: 'get_dfm', arguments: { dfm_id: dfmId, include_bend_steps: false, nest_quantity: QUANTITY } })) as CallToolResult;
    assert.ok(!viaMcp.isError, JSON.stringify(viaMcp.content).slice(0, 400));
    assert.match((viaMcp.content[0] as { text: string }).text, new RegExp(`Sheet nest at ${QUANTITY}: ${STEEL_2MM} on \\d+ sheet\\(s\\) .*utilisation ${Math.round(utilization * 1000) / 10} %`));
    const links = viaMcp.content.filter((c) => c.type === 'resource_link') as Array<{ uri: string; name: string; mimeType: string }>;
    assert.deepEqual(links.map((l) => [l.name, l.mimeType]), files.map((f) => [f.file_name, f.content_type]));
    let linked = 0;
    for (const l of links.filter((x) => x.mimeType === 'application/dxf')) linked += await dxfPieces(t.url, l.uri);
    assert.equal(linked, QUANTITY);
    const badQuantity = (await agent.callTool({ name: 'get_dfm', arguments: { dfm_id: dfmId, nest_quantity: 0 } })) as CallToolResult;
    assert.equal(badQuantity.isError, true);
    assert.equal((badQuantity.structuredContent as { error: { param: string } }).error.param, 'nest_quantity');

    // the default quantity is 1: one piece on one sheet
    r = await buyer.get(`/v1/dfm/${dfmId}/nest`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.quantity, 1);
    assert.equal(await dxfPieces(t.url, (r.body.production_files as ProductionFile[]).find((f) => f.kind === 'nest_dxf')!.url), 1);
    // the report is not changed by being nested
    assert.equal(JSON.stringify((await buyer.get(`/v1/dfm/${dfmId}`)).body), before);

    // a bad quantity is a 422 naming it; another account's or an unknown report is not found
    for (const bad of ['0', '10001', '2.5', 'many', '-3', '', '1&quantity=2']) {
      r = await buyer.get(`/v1/dfm/${dfmId}/nest?quantity=${bad}`);
      assert.equal(r.status, 422, `quantity=${bad}: ${r.text}`);
      assert.equal(r.body.error.param, 'quantity', r.text);
      assert.equal(r.body.error.type, 'invalid_request_error');
    }
    r = await buyer.get(`/v1/dfm/${dfmId}/nest?quantity=2&sheet=1`);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.error.param, 'sheet', 'an unknown parameter is named');
    assert.equal((await other.get(`/v1/dfm/${dfmId}/nest?quantity=2`)).status, 404);
    r = await buyer.get('/v1/dfm/dfm_unknown/nest');
    assert.equal(r.status, 404, r.text);
    assert.equal(r.body.error.code, 'resource_missing');
  });

  it('a DFM report\'s nest multiplies the quantity by instance counts and nests each material apart', { timeout: 240_000 }, async () => {
    const up = await buyer.post('/v1/analyze', { form: stepForm(INSTANCED) });
    assert.equal(up.status, 202, up.text);
    const design = await pollDesign(buyer, up.body.id, 120_000);
    const parts = design.parts as Array<{ id: string; instance_count: number; detected_thickness_mm: number; suggested_process: string }>;
    assert.ok(parts.some((p) => p.instance_count > 1), 'instanced parts');
    const materialOf = (p: { detected_thickness_mm: number }): string => MATERIAL_BY_THICKNESS[String(p.detected_thickness_mm)];
    assert.ok(parts.every((p) => p.suggested_process === 'sheet_metal' && materialOf(p)), JSON.stringify(parts.map((p) => [p.suggested_process, p.detected_thickness_mm])));
    const units = 3;
    const expected = new Map<string, number>();
    for (const p of parts) expected.set(materialOf(p), (expected.get(materialOf(p)) ?? 0) + units * p.instance_count);
    assert.equal(expected.size, 2, 'two materials');

    // without a material nothing is priced: no nest
    let r = await buyer.post('/v1/dfm', { json: { design_id: design.id, generate_production_files: false } });
    assert.equal(r.status, 201, r.text);
    r = await buyer.get(`/v1/dfm/${r.body.id}/nest?quantity=${units}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.nests, r.body.production_files], [[], []]);

    const configuration = { parts: parts.map((p) => ({ part_id: p.id, material_id: materialOf(p) })) };
    r = await buyer.post('/v1/dfm', { json: { design_id: design.id, configuration, generate_production_files: false } });
    assert.equal(r.status, 201, r.text);
    r = await buyer.get(`/v1/dfm/${r.body.id}/nest?quantity=${units}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((r.body.nests as Array<{ material_id: string }>).map((n) => n.material_id).sort(), [...expected.keys()].sort(), 'a nest per material');
    const files = r.body.production_files as ProductionFile[];
    for (const [material, count] of expected) {
      let pieces = 0;
      for (const f of files.filter((x) => x.kind === 'nest_dxf' && x.material_id === material)) pieces += await dxfPieces(t.url, f.url, null);
      assert.equal(pieces, count, `${material}: ${units} units x the instance counts`);
    }
  });
});
