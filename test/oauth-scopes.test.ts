// The endpoint -> scope table as documented (openapi.json security requirements) is what the API
// enforces: for every operation, an OAuth token lacking a documented scope gets 403
// insufficient_scope naming it, a token with exactly the documented scopes gets past the check, and
// catalogs and the account summary answer any token. API keys keep every scope.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { StoreAdapter } from '@kerf/oauth';
import { SCOPES, type Scope } from '@kerf/usecases';
import type { Store } from '@kerf/store';
import { startTestService, type TestService } from './helpers/service.ts';

/** A connection with these scopes and its access token, written through the authorization server's own storage. */
async function tokenWith(store: Store, accountId: string, scopes: readonly string[]): Promise<string> {
  const grantId = randomBytes(16).toString('base64url');
  const token = randomBytes(32).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + 900;
  await new StoreAdapter(store, 'Grant').upsert(grantId, { jti: grantId, kind: 'Grant', accountId, clientId: 'svc-agent', exp }, 900);
  await new StoreAdapter(store, 'AccessToken').upsert(token, { jti: token, kind: 'AccessToken', accountId, grantId, clientId: 'svc-agent', scope: scopes.join(' '), exp }, 900);
  return token;
}

const PATH_VALUES: Record<string, string> = { kind: 'studs', item_id: 'nothing', design_id: 'des_none', part_id: 'prt_none', dfm_id: 'dfm_none', quote_id: 'quo_none', review_link_id: 'rvl_none', cart_id: 'crt_none', order_id: 'ord_none', endpoint_id: 'whe_none', step: '1' };
const QUERIES: Record<string, string> = { 'GET /v1/dfm/{dfm_id}/parts/{part_id}/file': '?kind=production_dxf' };
const ITEMS = { items: [{ design_id: 'des_none', quantity: 1 }] };
const BODIES: Record<string, unknown> = {
  'POST /v1/review-links': { design_id: 'des_none' },
  'POST /v1/dfm': { design_id: 'des_none' },
  'POST /v1/quotes': ITEMS,
  'POST /v1/carts': ITEMS,
  'PATCH /v1/carts/{cart_id}': { shipping_option_id: 'shp_none' },
  'POST /v1/carts/{cart_id}/pay': { payment: { type: 'card_on_file' } },
  'POST /v1/webhook-endpoints': { url: 'https://hooks.example.com/kerf' },
  'POST /v1/admin/orders/{order_id}/status': { status: 'in_production' },
  'POST /v1/admin/dropship/accounts/{account_id}/status': { status: 'approved' },
  'POST /v1/admin/dropship/items': { order_id: 'ord_none', line_item_id: 'oli_none', sku: 'NONE' },
  'POST /v1/admin/dropship/items/{item_id}/approve': { unit_price_cents: 100 },
  'POST /v1/admin/dropship/orders/{order_id}/status': { status: 'in_review' },
};

interface Operation { key: string; method: string; path: string; security: Array<Record<string, string[]>> | undefined }

describe('OAuth scopes per endpoint (openapi.json security = enforcement)', () => {
  let t: TestService;
  let operations: Operation[];
  before(async () => {
    t = await startTestService();
    const doc = await (await fetch(`${t.url}/v1/openapi.json`)).json() as { paths: Record<string, Record<string, { security?: Operation['security'] }>> };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, security: op.security })));
  });
  after(async () => { await t?.close(); });

  const call = async (op: Operation, token: string) => {
    const url = t.url + op.path.replace(/\{(\w+)\}/g, (_m, name: string) => PATH_VALUES[name] ?? 'x') + (QUERIES[op.key] ?? '');
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'idempotency-key': randomBytes(8).toString('hex') };
    if (op.key === 'POST /v1/analyze') {
      const form = new FormData();
      form.append('file', new Blob([readFileSync('fixtures/sheet/l_t2_r2.step')]), 'l.step');
      return fetch(url, { method: 'POST', headers, body: form, redirect: 'manual' });
    }
    const body = BODIES[op.key];
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(url, { method: op.method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
  };

  it('every operation states its security requirement', () => {
    assert.ok(operations.length > 30);
    for (const op of operations) assert.ok(Array.isArray(op.security), `${op.key} has no security requirement`);
  });

  it('a token without a documented scope is refused with insufficient_scope; with exactly the documented scopes it gets past the check', async () => {
    let checked = 0;
    for (const op of operations) {
      const oauth = op.security?.find((s) => 'oauth2' in s)?.oauth2;
      if (!oauth) continue;
      for (const scope of oauth) {
        const res = await call(op, await tokenWith(t.service.store, t.accountA, SCOPES.filter((s) => s !== scope)));
        const body = await res.json() as { error?: { code: string; details?: { required_scope?: string } } };
        assert.equal(res.status, 403, `${op.key} without ${scope}: ${JSON.stringify(body)}`);
        assert.equal(body.error?.code, 'insufficient_scope', op.key);
        assert.equal(body.error?.details?.required_scope, scope, op.key);
        assert.equal(res.headers.get('www-authenticate'), `Bearer realm="kerf", error="insufficient_scope", scope="${scope}", resource_metadata="${t.url}/.well-known/oauth-protected-resource"`);
        checked += 1;
      }
      const res = await call(op, await tokenWith(t.service.store, t.accountA, oauth as Scope[]));
      const body = await res.text();
      assert.ok(res.status !== 401 && res.status !== 403, `${op.key} with ${oauth.join(' ') || 'no scope'}: ${res.status} ${body.slice(0, 200)}`);
    }
    assert.ok(checked >= 25, `checked ${checked}`);
  });

  it('operator routes refuse OAuth tokens whatever their scopes; a revoked or unknown token is 401', async () => {
    const all = await tokenWith(t.service.store, t.accountA, SCOPES);
    for (const op of operations.filter((o) => o.path.startsWith('/v1/admin/'))) {
      assert.equal((await call(op, all)).status, 403, op.key);
    }
    const unknown = await fetch(`${t.url}/v1/materials`, { headers: { authorization: `Bearer ${randomBytes(32).toString('base64url')}` } });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.headers.get('www-authenticate'), `Bearer realm="kerf", error="invalid_token", resource_metadata="${t.url}/.well-known/oauth-protected-resource"`);
  });
});
