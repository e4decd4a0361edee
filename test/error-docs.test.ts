// The service documents its own errors: every error's doc_url opens a section of the service's
// error reference, and that reference covers every code the source can produce.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STATUS_BY_KIND } from '@kerf/rest';
import { startTestService, type TestService } from './helpers/service.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Produced { code: string; status: number | null; type: string | null; where: string }

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

const literal = (token: string): string | null => /^'([a-z0-9_]+)'$/.exec(token.trim())?.[1] ?? null;

/** Every error code written literally where an error is made, with its status and type when those are literal too. */
function producedCodes(): Produced[] {
  const dirs = ['engine/src', 'service/src', ...readdirSync(join(ROOT, 'adapters')).map((a) => `adapters/${a}/src`)];
  const out: Produced[] = [];
  for (const file of dirs.flatMap((d) => { try { return sources(join(ROOT, d)); } catch { return []; } })) {
    const text = readFileSync(file, 'utf8');
    const where = relative(ROOT, file);
    // The code argument may be a conditional between two literals. A use-case error names its kind,
    // which the REST adapter turns into a status; an HTTP-layer error names its status.
    for (const m of text.matchAll(/new (UseCaseError|HttpError)\(\s*([^,]+?)\s*,\s*([^,]+?)\s*,\s*([^,]+),/g)) {
      const kind = literal(m[2]);
      const status = m[1] === 'HttpError' ? (/^\d{3}$/.test(m[2]) ? Number(m[2]) : null) : kind ? STATUS_BY_KIND[kind as keyof typeof STATUS_BY_KIND] ?? null : null;
      for (const c of m[4].matchAll(/'([a-z0-9_]+)'/g)) out.push({ code: c[1], status, type: literal(m[3]), where });
    }
    for (const m of text.matchAll(/\binvalid\(\s*'([a-z0-9_]+)'/g)) out.push({ code: m[1], status: 422, type: 'invalid_request_error', where });
    for (const m of text.matchAll(/\bmalformed\(\s*'([a-z0-9_]+)'/g)) out.push({ code: m[1], status: 400, type: 'invalid_request_error', where });
    for (const m of text.matchAll(/\bunavailable\(\s*'([a-z0-9_]+)'/g)) out.push({ code: m[1], status: 503, type: 'api_error', where });
    for (const m of text.matchAll(/\bEngineError\(\s*'([a-z0-9_]+)'/g)) out.push({ code: m[1], status: null, type: null, where });
  }
  // Engine codes a caller can meet even if no literal throw of them is left in the source.
  const union = /export type EngineErrorCode =([^;]+);/.exec(readFileSync(join(ROOT, 'engine/src/contract.ts'), 'utf8'))![1];
  for (const c of union.matchAll(/'([a-z0-9_]+)'/g)) out.push({ code: c[1], status: null, type: null, where: 'engine/src/contract.ts' });
  return out;
}

describe('error reference', () => {
  let t: TestService;
  before(async () => { t = await startTestService(); });
  after(async () => { await t.close(); });

  it("a real error's doc_url opens the service's own HTML section for its code, without a key", async () => {
    for (const [path, headers, code] of [
      ['/v1/designs/des_does_not_exist', { authorization: `Bearer ${t.keyA}` }, 'resource_missing'],
      ['/v1/materials', {}, 'missing_api_key'],
    ] as const) {
      const res = await fetch(`${t.url}${path}`, { headers });
      const body = await res.json() as { error: { code: string; doc_url: string } };
      assert.equal(body.error.code, code);
      assert.equal(body.error.doc_url, `${t.url}/docs/errors#${code}`);
      const doc = await fetch(body.error.doc_url);
      assert.equal(doc.status, 200);
      assert.match(doc.headers.get('content-type') ?? '', /^text\/html/);
      const html = await doc.text();
      assert.ok(html.includes(`id="${code}"`), `no section id="${code}"`);
      // Self-contained: readable where the operator's users have no internet access.
      assert.doesNotMatch(html, /\b(src|href)="(https?:)?\/\//);
    }
  });

  it('the JSON reference lists every code once, complete, each with its section in the HTML page', async () => {
    const res = await fetch(`${t.url}/docs/errors.json`);
    assert.equal(res.status, 200);
    const list = await res.json() as { object: string; data: Array<Record<string, unknown>>; has_more: boolean };
    assert.equal(list.object, 'list');
    assert.equal(list.has_more, false);
    const codes = list.data.map((e) => e.code);
    assert.equal(new Set(codes).size, codes.length, 'duplicate codes');
    const html = await (await fetch(`${t.url}/docs/errors`)).text();
    const types = ['invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'idempotency_error', 'rate_limit_error', 'payment_error', 'api_error'];
    for (const e of list.data) {
      assert.ok(types.includes(e.type as string), `${e.code}: type ${e.type}`);
      assert.ok(Array.isArray(e.status) && e.status.every((s) => Number.isInteger(s) && s >= 400 && s < 600), `${e.code}: status`);
      assert.equal(typeof e.retryable, 'boolean');
      assert.ok(typeof e.meaning === 'string' && e.meaning.length > 10, `${e.code}: meaning`);
      assert.ok(typeof e.action === 'string' && e.action.length > 5, `${e.code}: action`);
      assert.ok(html.includes(`id="${e.code}"`), `no section for ${e.code}`);
    }
  });

  it('every code the source produces is in the reference, with the status and type it is produced with', async () => {
    const served = (await (await fetch(`${t.url}/docs/errors.json`)).json() as { data: Array<{ code: string; type: string; status: number[] }> }).data;
    const byCode = new Map(served.map((e) => [e.code, e]));
    const produced = producedCodes();
    // A scan that stopped matching would pass vacuously.
    assert.ok(new Set(produced.map((p) => p.code)).size >= 30, `only ${produced.length} codes found in the source`);
    const problems: string[] = [];
    for (const p of produced) {
      const e = byCode.get(p.code);
      if (!e) { problems.push(`${p.where}: '${p.code}' is not in the error reference`); continue; }
      if (p.status !== null && !e.status.includes(p.status)) problems.push(`${p.where}: '${p.code}' is produced with ${p.status}, documented as ${e.status.join('/')}`);
      if (p.type !== null && p.type !== e.type) problems.push(`${p.where}: '${p.code}' is produced as ${p.type}, documented as ${e.type}`);
    }
    assert.deepEqual(problems, []);
  });
});
