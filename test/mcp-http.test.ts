// The hosted MCP server ({base_url}/mcp) with the official SDK's client, in both protocol eras
// (2026-07-28 and 2025-11-25), on the real service: the agent workflow on a real corpus part (upload by
// PUT, inspect, preview, catalog, DFM, quote, review link, checkout link), operation_key retries, and
// hostile input (wrong file type, oversize PUT, expired upload link, another account's design).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startTestService, type TestService } from './helpers/service.ts';
import { fixtureBytes } from './helpers/fixtures.ts';
import { launchBrowser } from './helpers/browser.ts';

const PART = fileURLToPath(new URL('../../shared/corpus/real/ender3-support-frame.step', import.meta.url));
const TOOLS = ['prepare_upload', 'inspect_design', 'preview_design', 'search_catalog', 'configure_design', 'quote_designs', 'get_quote', 'get_dfm', 'create_review_link', 'get_review_link', 'create_checkout', 'get_order_production_files'];
const RISKS = ['hole_too_close_to_bend', 'countersink_too_close_to_bend'];

type Era = 'modern' | 'legacy';

async function connect(url: string, key: string, era: Era): Promise<Client> {
  const client = new Client({ name: 'kerf-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured content of a successful call. */
async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await call(client, name, args);
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  assert.equal(r.content[0].type, 'text', 'a text copy comes first');
  assert.ok(r.structuredContent, `${name} has structured content`);
  return r.structuredContent;
}

/** The error of a failed call: contract-shaped, with what to do in the text. */
async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<{ code: string; param: string | null; message: string; text: string }> {
  const r = await call(client, name, args);
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.content).slice(0, 400)}`);
  const error = (r.structuredContent as { error: { code: string; param: string | null; message: string } }).error;
  return { ...error, text: (r.content[0] as { text: string }).text };
}

async function put(url: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'PUT', body, headers: Object.keys(headers).length ? headers : { 'content-type': 'application/octet-stream' } });
  return { status: res.status, body: await res.json() };
}

describe('hosted MCP server', () => {
  let t: TestService;
  let shiftMs = 0;
  const clients: Client[] = [];
  let a: Client;
  let legacy: Client;
  let b: Client;
  const bytes = fixtureBytes(PART);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  let designId: string;
  let readyConfiguration: Record<string, unknown>;

  before(async () => {
    t = await startTestService({}, { now: () => new Date(Date.now() + shiftMs) });
    a = await connect(t.url, t.keyA, 'modern');
    legacy = await connect(t.url, t.keyA, 'legacy');
    b = await connect(t.url, t.keyB, 'modern');
    clients.push(a, legacy, b);
  });
  after(async () => {
    for (const c of clients) await c.close();
    await t.close();
  });

  it('asks for credentials the way a standard client discovers: 401 with the protected-resource metadata', async () => {
    const res = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /^Bearer /);
    assert.ok(challenge.includes(`resource_metadata="${t.url}/.well-known/oauth-protected-resource"`), challenge);
    assert.ok(challenge.includes('scope="designs dfm quotes carts"'), challenge);
    assert.ok(!challenge.includes('payments'));
    const missing = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(missing.error.code, 'missing_api_key');
    // a client signing in with OAuth is told its way in too, not only about API keys
    assert.match(missing.error.message, /API key/);
    assert.match(missing.error.message, /OAuth access token/);
    const bad = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(bad.status, 401);
    assert.match(bad.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    // a web page elsewhere cannot drive the server through a visitor's browser
    const foreign = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${t.keyA}`, origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(foreign.status, 403);
    assert.equal((await foreign.json()).error.code, 'origin_not_allowed');
  });

  it('serves both protocol eras, negotiated by the SDK, with the same strict and described tools', async () => {
    assert.equal(a.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal(legacy.getNegotiatedProtocolVersion(), '2025-11-25');
    for (const client of [a, legacy]) {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((x) => x.name).sort(), [...TOOLS].sort());
      for (const tool of tools) {
        assert.ok(tool.description && tool.description.length > 40, `${tool.name} is described`);
        const schema = tool.inputSchema as { additionalProperties?: boolean; properties: Record<string, { description?: string }> };
        assert.equal(schema.additionalProperties, false, `${tool.name} input is strict`);
        for (const [name, prop] of Object.entries(schema.properties)) assert.ok(prop.description, `${tool.name}.${name} is described`);
        const writes = 'operation_key' in schema.properties;
        assert.equal(writes, tool.annotations?.readOnlyHint === false, `${tool.name}: writes (and only writes) take operation_key`);
      }
    }
  });

  it('runs the agent workflow on a real part: upload by PUT, inspect, preview, catalog, DFM, quote, review link, checkout link', async () => {
    const key = randomUUID();
    const prepared = await ok(a, 'prepare_upload', { request: { filename: 'ender3-support-frame.step', size_bytes: bytes.length, sha256 }, operation_key: key });
    assert.match(prepared.design_id, /^des_/);
    assert.ok(prepared.upload_url.startsWith(`${t.url}/mcp/uploads/`));
    assert.equal(prepared.browser_upload_url, prepared.upload_url);
    assert.deepEqual(prepared.upload_headers, { 'Content-Type': 'application/octet-stream' });
    // the same key and input: the same reservation, not a second one
    const again = await ok(legacy, 'prepare_upload', { request: { filename: 'ender3-support-frame.step', size_bytes: bytes.length, sha256 }, operation_key: key });
    assert.equal(again.design_id, prepared.design_id);
    designId = prepared.design_id;

    const waiting = await ok(a, 'inspect_design', { design_id: designId });
    assert.equal(waiting.status, 'awaiting_upload');
    const page = await fetch(prepared.browser_upload_url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<input id="file" type="file"/);

    const uploaded = await put(prepared.upload_url, bytes, prepared.upload_headers);
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    assert.equal(uploaded.body.design_id, designId);
    // a retried PUT of the same bytes answers the same design
    assert.equal((await put(prepared.upload_url, bytes)).body.design_id, designId);

    let design = await ok(a, 'inspect_design', { design_id: designId, wait_seconds: 25 });
    for (let i = 0; design.status !== 'ready' && i < 10; i++) design = await ok(a, 'inspect_design', { design_id: designId, wait_seconds: 25 });
    assert.equal(design.status, 'ready', JSON.stringify(design.error));
    assert.equal(design.id, designId);
    assert.ok(design.parts.length >= 1);
    const part = design.parts[0];

    const preview = await call(a, 'preview_design', { design_id: designId, views: ['iso', 'flat'], width: 256 });
    assert.ok(!preview.isError, JSON.stringify(preview.content));
    const images = preview.content.filter((c) => c.type === 'image') as Array<{ data: string; mimeType: string }>;
    assert.ok(images.length >= 2, 'an iso view and a flat pattern');
    for (const img of images) {
      assert.equal(img.mimeType, 'image/png');
      assert.deepEqual([...Buffer.from(img.data, 'base64').subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'PNG bytes');
    }
    const labels = (preview.structuredContent as { images: Array<{ label: string }> }).images.map((i) => i.label);
    assert.ok(labels.some((l) => l.startsWith('iso view')) && labels.some((l) => l.startsWith('Flat pattern')), labels.join('; '));

    const materials = await ok(a, 'search_catalog', { catalog: 'materials', query: 'Steel', limit: 500 });
    assert.ok(materials.data.length > 0 && materials.data.every((m: { type: string; material: string }) => /steel/i.test(`${m.type} ${m.material}`)), 'a query returns matching entries');
    const all = await ok(a, 'search_catalog', { catalog: 'materials', limit: 500 });
    assert.ok(all.data.length > materials.data.length);
    const material = materials.data.find((m: { thickness_mm: number; bendable: boolean; type: string }) => Math.abs(m.thickness_mm - part.detected_thickness_mm) < 0.05 && m.bendable && /steel/i.test(m.type));
    assert.ok(material, `a steel sheet of ${part.detected_thickness_mm} mm`);
    const configuration = { defaults: { material_id: material.id }, accepted_risks: RISKS };
    readyConfiguration = configuration;

    const missing = await ok(a, 'configure_design', { design_id: designId, configuration: {}, operation_key: randomUUID() });
    assert.equal(missing.status, 'requires_input');
    const dfmCall = await call(a, 'configure_design', { design_id: designId, configuration, operation_key: randomUUID() });
    const dfm = dfmCall.structuredContent as { id: string; status: string; parts: Array<{ capabilities: unknown }> };
    assert.ok(dfm.parts[0].capabilities, 'capabilities by default');
    const svg = dfmCall.content.find((c) => c.type === 'resource') as { resource: { mimeType: string; uri: string; text: string } } | undefined;
    assert.ok(svg && svg.resource.mimeType === 'image/svg+xml' && svg.resource.text.includes('<svg'), 'annotated DFM images');
    assert.ok(svg.resource.uri.startsWith(`${t.url}/v1/dfm/${dfm.id}/parts/`), svg.resource.uri);
    const got = await call(a, 'get_dfm', { dfm_id: dfm.id });
    assert.equal((got.structuredContent as { id: string }).id, dfm.id);
    // the press-brake plan: in the report and in the tool's text
    const plan = (got.structuredContent as { parts: Array<{ bend_plan: { status: string; sequence: Array<{ bend_id: number }> } }> }).parts[0].bend_plan;
    assert.equal(plan.status, 'found');
    assert.deepEqual(plan.sequence.map((s) => s.bend_id), [1, 2, 3]);
    const gotText = got.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
    assert.match(gotText, /bend sequence of prt_\w+: bend 1 \(pun_straight_88 on die_v\d+_88.*\), then bend 2/);
    // the bend table, a line per step naming its picture's URL, and the pictures themselves (SVG under that URL)
    const steps = (got.structuredContent as { parts: Array<{ part_id: string; bend_plan: { sequence: Array<{ step: number; bend_id: number; image_url: string }> } }> }).parts[0];
    assert.match(gotText, /Bend table of prt_\w+ \(step: bend, angle/);
    for (const s of steps.bend_plan.sequence) {
      assert.equal(s.image_url, `${t.url}/v1/dfm/${dfm.id}/parts/${steps.part_id}/bend-steps/${s.step}/image`);
      assert.ok(gotText.includes(`  ${s.step}: bend ${s.bend_id}, `) && gotText.includes(s.image_url), `step ${s.step} in the table`);
    }
    const pictures = got.content.filter((c) => c.type === 'resource') as Array<{ resource: { uri: string; mimeType: string; text: string } }>;
    assert.deepEqual(pictures.map((c) => c.resource.uri), steps.bend_plan.sequence.map((s) => s.image_url), 'one picture per step');
    pictures.forEach((c, i) => {
      assert.equal(c.resource.mimeType, 'image/svg+xml');
      assert.ok(c.resource.text.startsWith('<svg') && c.resource.text.includes(`Step ${i + 1}: bend ${steps.bend_plan.sequence[i].bend_id},`), c.resource.text.slice(0, 200));
    });
    const bare = await call(a, 'get_dfm', { dfm_id: dfm.id, include_bend_steps: false });
    assert.equal(bare.content.filter((c) => c.type === 'resource').length, 0, 'pictures on request only');

    const quoteKey = randomUUID();
    const quote = await ok(a, 'quote_designs', { items: [{ design_id: designId, quantity: 2, configuration }], operation_key: quoteKey });
    assert.equal(quote.status, 'ready', JSON.stringify([quote.requirements, quote.items[0].dfm.parts.map((p: { issues: unknown[] }) => p.issues), material]));
    assert.ok(quote.items[0].dfm.id.startsWith('dfm_'), 'the quote includes DFM');
    assert.ok(quote.amount_subtotal_cents > 0);
    const replay = await ok(legacy, 'quote_designs', { items: [{ design_id: designId, quantity: 2, configuration }], operation_key: quoteKey });
    assert.equal(replay.id, quote.id, 'a retry with the same key is the same quote');
    const reused = await toolError(a, 'quote_designs', { items: [{ design_id: designId, quantity: 3, configuration }], operation_key: quoteKey });
    assert.equal(reused.code, 'idempotency_key_reused');
    assert.equal(reused.param, 'operation_key');
    assert.ok(reused.text.includes(quoteKey), 'the error names the key');
    assert.equal((await ok(a, 'get_quote', { quote_id: quote.id })).status, 'ready');

    const link = await ok(a, 'create_review_link', { design_id: designId, configuration, dfm_id: dfm.id, operation_key: randomUUID() });
    assert.ok(link.review_url);
    const read = await ok(a, 'get_review_link', { review_link_id: link.id });
    assert.deepEqual(read.configuration.defaults, configuration.defaults);

    const checkoutKey = randomUUID();
    const checkout = await ok(a, 'create_checkout', { quote_id: quote.id, operation_key: checkoutKey });
    assert.ok(typeof checkout.checkout_url === 'string' && checkout.checkout_url.length > 0, JSON.stringify(checkout));
    assert.match(checkout.cart_id, /^crt_/);
    assert.equal((await ok(a, 'create_checkout', { quote_id: quote.id, operation_key: checkoutKey })).cart_id, checkout.cart_id, 'a retried checkout is the same cart');
    const notReady = await ok(a, 'quote_designs', { items: [{ design_id: designId, quantity: 1 }], operation_key: randomUUID() });
    assert.equal(notReady.status, 'requires_input');
    assert.equal((await toolError(a, 'create_checkout', { quote_id: notReady.id, operation_key: randomUUID() })).code, 'quote_not_ready');
  });

  it('a person uploads the file on browser_upload_url (its page runs under a strict CSP)', async () => {
    const p = await ok(a, 'prepare_upload', { request: { filename: 'ender3-support-frame.step', sha256 }, operation_key: randomUUID() });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const blocked: string[] = [];
      page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) blocked.push(m.text()); });
      const res = await page.goto(p.browser_upload_url);
      assert.match(res!.headers()['content-security-policy'], /script-src 'sha256-/);
      assert.equal(res!.headers()['referrer-policy'], 'no-referrer');
      await page.setInputFiles('#file', { name: 'ender3-support-frame.step', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
      await page.waitForFunction(() => /Uploaded|failed/.test(document.getElementById('status')!.textContent ?? ''));
      assert.match(await page.textContent('#status') ?? '', new RegExp(`Uploaded. Design ${p.design_id}`));
      assert.deepEqual(blocked, []);
    } finally { await browser.close(); }
    assert.notEqual((await ok(a, 'inspect_design', { design_id: p.design_id })).status, 'awaiting_upload');
  });

  it('two calls with one operation_key at once make one quote', async () => {
    assert.ok(readyConfiguration, 'the workflow ran');
    const args = { items: [{ design_id: designId, quantity: 7, configuration: readyConfiguration }], operation_key: randomUUID() };
    const results = await Promise.all([call(a, 'quote_designs', args), call(legacy, 'quote_designs', args), call(a, 'quote_designs', args)]);
    const ids = new Set<string>();
    for (const r of results) {
      if (r.isError) assert.equal((r.structuredContent as { error: { code: string } }).error.code, 'idempotency_key_in_use');
      else ids.add((r.structuredContent as { id: string }).id);
    }
    assert.equal(ids.size, 1, 'every call that answered names the same quote');
    assert.equal((await ok(a, 'quote_designs', args)).id, [...ids][0], 'and a later retry too');
  });

  it('refuses a file that is not STEP, with what to do', async () => {
    const e = await toolError(a, 'prepare_upload', { request: { filename: 'bracket.stl' }, operation_key: randomUUID() });
    assert.equal(e.code, 'unsupported_file_type');
    assert.equal(e.param, 'filename');
    assert.match(e.text, /What to do: .*STEP/);
    // STEP by name, not by content: the PUT is checked like any upload
    const p = await ok(a, 'prepare_upload', { request: { filename: 'fake.step' }, operation_key: randomUUID() });
    const r = await put(p.upload_url, new TextEncoder().encode('solid cube\nendsolid cube\n'));
    assert.equal(r.status, 422);
    assert.equal(r.body.error.code, 'invalid_step');
  });

  it('checks the PUT against size_bytes and sha256, and refuses more than 50 MiB', async () => {
    const p = await ok(a, 'prepare_upload', { request: { filename: 'p.step', size_bytes: bytes.length, sha256 }, operation_key: randomUUID() });
    const short = await put(p.upload_url, bytes.subarray(0, bytes.length - 1));
    assert.equal(short.status, 422);
    assert.equal(short.body.error.code, 'upload_size_mismatch');
    const changed = new Uint8Array(bytes);
    changed[changed.length - 2] ^= 1;
    assert.equal((await put(p.upload_url, changed)).body.error.code, 'upload_checksum_mismatch');
    const big = await put(p.upload_url, new Uint8Array(50 * 1024 * 1024 + 1));
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, 'file_too_large');
    // nothing above made the design: the link still takes the right file
    assert.equal((await put(p.upload_url, bytes)).status, 201);
  });

  it('an upload link expires after 15 minutes', async () => {
    const p = await ok(a, 'prepare_upload', { request: { filename: 'late.step' }, operation_key: randomUUID() });
    shiftMs = 16 * 60 * 1000;
    try {
      const r = await put(p.upload_url, bytes);
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'upload_expired');
      assert.match(r.body.error.message, /prepare_upload again/);
      const d = await ok(a, 'inspect_design', { design_id: p.design_id });
      assert.equal(d.status, 'expired');
    } finally { shiftMs = 0; }
    const forged = await put(p.upload_url.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')), bytes);
    assert.equal(forged.status, 403);
    assert.equal(forged.body.error.code, 'invalid_signature');
  });

  it("never shows another account's design, and names bad arguments", async () => {
    assert.ok(designId, 'the workflow ran');
    for (const [name, args] of [['inspect_design', { design_id: designId }], ['preview_design', { design_id: designId }], ['create_review_link', { design_id: designId, operation_key: randomUUID() }]] as const) {
      const e = await toolError(b, name, args);
      assert.equal(e.code, 'resource_missing', name);
      assert.equal(e.param, 'design_id');
    }
    const q = await toolError(b, 'quote_designs', { items: [{ design_id: designId, quantity: 1 }], operation_key: randomUUID() });
    assert.equal(q.code, 'resource_missing');
    assert.equal(q.param, 'items[0].design_id');
    const unknown = await toolError(a, 'inspect_design', { design_id: designId, verbose: true });
    assert.equal(unknown.code, 'parameter_unknown');
    assert.equal(unknown.param, 'verbose');
    assert.equal((await toolError(a, 'search_catalog', { catalog: 'materials', query: 'steel', cursor: 'x' })).param, 'cursor');
    const noKey = await toolError(a, 'quote_designs', { items: [{ design_id: designId, quantity: 1 }] });
    assert.equal(noKey.code, 'parameter_missing');
    assert.equal(noKey.param, 'operation_key');
  });
});

describe('hosted MCP server under a rate limit', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ rateLimit: { max: 3, windowMs: 60_000 } }); });
  after(async () => { await t.close(); });

  it('answers 429 with Retry-After per credential once the limit is spent', async () => {
    const post = (key: string) => fetch(`${t.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    for (let i = 0; i < 3; i++) assert.notEqual((await post(t.keyA)).status, 429);
    const limited = await post(t.keyA);
    assert.equal(limited.status, 429);
    assert.ok(limited.headers.get('retry-after'));
    assert.equal((await limited.json()).error.code, 'rate_limit_exceeded');
    assert.notEqual((await post(t.keyB)).status, 429, 'another key has its own budget');
  });
});
