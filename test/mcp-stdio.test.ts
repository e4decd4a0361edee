// `kerf mcp`: the same tools over stdio, spawned as an agent on a laptop would, with the engine in
// that process and the embedded store in a data directory; no service runs. The SDK's client drives
// the agent workflow on a real corpus part in both protocol eras, files given by local path.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const KERF = fileURLToPath(new URL('../bin/kerf.mjs', import.meta.url));
const PART = fileURLToPath(new URL('../../shared/corpus/real/ender3-support-frame.step', import.meta.url));
/** The links' base URL: nothing listens on the discard port, so the links need a service started. */
const NO_SERVICE = 'http://127.0.0.1:9';
const RISKS = ['hole_too_close_to_bend', 'countersink_too_close_to_bend'];

describe('kerf mcp (stdio)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-mcp-'));
  const dataDir = join(dir, 'data');
  const clients: Client[] = [];
  let modern: Client;
  let legacy: Client;

  const connect = async (pin: boolean): Promise<Client> => {
    const client = new Client({ name: 'kerf-test', version: '1.0.0' }, pin ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [KERF, 'mcp', '--data-dir', dataDir], env: { ...env, LOG_LEVEL: 'error', KERF_BASE_URL: NO_SERVICE }, stderr: 'inherit' }));
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const ok = async (client: Client, name: string, args: Record<string, unknown>): Promise<any> => {
    const r = await call(client, name, args);
    assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content).slice(0, 600)}`);
    assert.equal(r.content[0].type, 'text');
    return r.structuredContent;
  };
  const fails = async (client: Client, name: string, args: Record<string, unknown>): Promise<{ code: string; param: string | null; text: string }> => {
    const r = await call(client, name, args);
    assert.equal(r.isError, true, `${name} should fail`);
    return { ...(r.structuredContent as { error: { code: string; param: string | null } }).error, text: (r.content[0] as { text: string }).text };
  };

  before(async () => {
    modern = await connect(true);
    legacy = await connect(false);
  });
  after(async () => {
    for (const c of clients) await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('speaks both protocol eras with the hosted tool list', async () => {
    assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal(legacy.getNegotiatedProtocolVersion(), '2025-11-25');
    const names = (await modern.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, (await legacy.listTools()).tools.map((t) => t.name));
    assert.equal(names.length, 12);
    const upload = (await modern.listTools()).tools.find((t) => t.name === 'prepare_upload')!;
    const request = (upload.inputSchema.properties as Record<string, { properties: Record<string, unknown> }>).request;
    assert.ok('path' in request.properties, 'locally, prepare_upload takes a path');
  });

  it('quotes a real part from its path: inspect, preview, catalog, quote, retry, review link, checkout link', async () => {
    const key = randomUUID();
    const up = await ok(modern, 'prepare_upload', { request: { path: PART }, operation_key: key });
    assert.match(up.design_id, /^des_/);
    assert.equal((await ok(legacy, 'prepare_upload', { request: { path: PART }, operation_key: key })).design_id, up.design_id, 'a retry is the same design');
    let design = await ok(modern, 'inspect_design', { design_id: up.design_id, wait_seconds: 25 });
    for (let i = 0; design.status !== 'ready' && i < 10; i++) design = await ok(modern, 'inspect_design', { design_id: up.design_id, wait_seconds: 25 });
    assert.equal(design.status, 'ready', JSON.stringify(design.error));
    assert.equal(design.name, 'ender3-support-frame.step');
    const part = design.parts[0];

    const preview = await call(legacy, 'preview_design', { design_id: design.id, part_id: part.id, views: ['top'], width: 128 });
    assert.equal(preview.content.filter((c) => c.type === 'image').length, 1);

    const materials = await ok(modern, 'search_catalog', { catalog: 'materials', limit: 500 });
    const material = materials.data.find((m: { thickness_mm: number; bendable: boolean; type: string }) => Math.abs(m.thickness_mm - part.detected_thickness_mm) < 0.05 && m.bendable && /steel/i.test(m.type));
    assert.ok(material);
    const configuration = { defaults: { material_id: material.id }, accepted_risks: RISKS };
    const quoteKey = randomUUID();
    const quote = await ok(modern, 'quote_designs', { items: [{ design_id: design.id, quantity: 5, configuration }], operation_key: quoteKey });
    assert.equal(quote.status, 'ready');
    assert.equal((await ok(legacy, 'quote_designs', { items: [{ design_id: design.id, quantity: 5, configuration }], operation_key: quoteKey })).id, quote.id);
    assert.equal((await fails(modern, 'quote_designs', { items: [{ design_id: design.id, quantity: 6, configuration }], operation_key: quoteKey })).code, 'idempotency_key_reused');

    const link = await ok(modern, 'create_review_link', { design_id: design.id, configuration, operation_key: randomUUID() });
    assert.equal((await ok(modern, 'get_review_link', { review_link_id: link.id })).design_id, design.id);
    const checkout = await ok(modern, 'create_checkout', { quote_id: quote.id, operation_key: randomUUID() });
    assert.ok(checkout.checkout_url.startsWith(NO_SERVICE), checkout.checkout_url);
    // no service serves the link yet: the result says how to start one on this data
    const again = await call(modern, 'create_checkout', { quote_id: quote.id, operation_key: randomUUID() });
    const text = (again.content[0] as { text: string }).text;
    assert.match(text, /No Kerf service answers at http:\/\/127\.0\.0\.1:9/);
    assert.ok(text.includes(`KERF_DATA_DIR=${dataDir}`) && text.includes('kerf serve'), text);
  });

  it('refuses what is not a STEP file, a missing file and one over 50 MiB', async () => {
    const stl = join(dir, 'part.stl');
    writeFileSync(stl, 'solid x\nendsolid x\n');
    const wrong = await fails(modern, 'prepare_upload', { request: { path: stl }, operation_key: randomUUID() });
    assert.equal(wrong.code, 'unsupported_file_type');
    assert.match(wrong.text, /What to do/);
    const fake = join(dir, 'fake.step');
    writeFileSync(fake, 'not a step file');
    assert.equal((await fails(modern, 'prepare_upload', { request: { path: fake }, operation_key: randomUUID() })).code, 'invalid_step');
    const missing = await fails(modern, 'prepare_upload', { request: { path: join(dir, 'nope.step') }, operation_key: randomUUID() });
    assert.equal(missing.param, 'request.path');
    const big = join(dir, 'big.step');
    writeFileSync(big, '');
    truncateSync(big, 50 * 1024 * 1024 + 1);
    assert.equal((await fails(modern, 'prepare_upload', { request: { path: big }, operation_key: randomUUID() })).code, 'file_too_large');
    assert.equal((await fails(modern, 'inspect_design', { design_id: 'des_nope' })).code, 'resource_missing');
  });

  it('kerf mcp --help and bad arguments', () => {
    const help = spawnSync(process.execPath, [KERF, 'mcp', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /usage: kerf mcp/);
    const bad = spawnSync(process.execPath, [KERF, 'mcp', '--port', '1'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.equal(JSON.parse(bad.stderr.split('\n')[0]).error.code, 'invalid_arguments');
    assert.equal(bad.stdout, '', 'stdout is the protocol\'s: nothing else is written there');
  });
});
