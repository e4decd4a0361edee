// One way in (ARCHITECTURE.md invariant 4): every operation is a use case that checks the caller's
// scope and its own input, so each transport enforces the same rules and the same bad input gives
// the same error from the API and from the CLI.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  SCOPES, UseCaseError, createDfmReport, createQuote, createReviewLink, getDesign, getDfmReport, getQuote, listCatalog,
  getWebhookEndpoint, deleteWebhookEndpoint, rollWebhookSecret, listWebhookDeliveries, createWebhookEndpoint, listWebhookEndpoints,
  type Caller, type Scope,
} from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { stepForm } from './helpers/client.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const L_BRACKET = 'fixtures/sheet/l_t2_r2.step';
const BAD_CONFIGURATION = { defaults: { material_id: 5 } };

const callerWith = (accountId: string, scopes: readonly Scope[]): Caller => ({ accountId, scopes, via: 'oauth', credentialId: 'tok_test', operator: false });

async function refusal(run: () => Promise<unknown>): Promise<UseCaseError> {
  try { await run(); } catch (err) { if (err instanceof UseCaseError) return err; throw err; }
  assert.fail('expected a UseCaseError');
}

describe('one way in', () => {
  let t: TestService;
  before(async () => { t = await startTestService(); });
  after(async () => { await t.close(); });

  it('each use case checks its scope itself: without it, insufficient_scope; with only it, past the check', async () => {
    const ctx = t.service.ctx;
    const cases: Array<[Scope, (c: Caller) => Promise<unknown>]> = [
      ['designs', (c) => getDesign(ctx, c, { design_id: 'des_none' })],
      ['designs', (c) => createReviewLink(ctx, c, { design_id: 'des_none' })],
      ['dfm', (c) => createDfmReport(ctx, c, { design_id: 'des_none' })],
      ['dfm', (c) => getDfmReport(ctx, c, { dfm_id: 'dfm_none' })],
      ['quotes', (c) => createQuote(ctx, c, { items: [{ design_id: 'des_none', quantity: 1 }] })],
      ['quotes', (c) => getQuote(ctx, c, { quote_id: 'quo_none' })],
      ['webhooks', (c) => getWebhookEndpoint(ctx, c, { endpoint_id: 'whe_none' })],
      ['webhooks', (c) => deleteWebhookEndpoint(ctx, c, { endpoint_id: 'whe_none' })],
      ['webhooks', (c) => rollWebhookSecret(ctx, c, { endpoint_id: 'whe_none' })],
      ['webhooks', (c) => listWebhookDeliveries(ctx, c, { endpoint_id: 'whe_none' })],
    ];
    for (const [scope, run] of cases) {
      const others = SCOPES.filter((s) => s !== scope);
      const denied = await refusal(() => run(callerWith(t.accountA, others)));
      assert.equal(denied.kind, 'forbidden', scope);
      assert.equal(denied.code, 'insufficient_scope');
      assert.equal(denied.details?.required_scope, scope);
      // with the scope, the use case goes on and meets the missing resource
      const missing = await refusal(() => run(callerWith(t.accountA, [scope])));
      assert.equal(missing.code, 'resource_missing', scope);
    }
    // an OAuth token without the webhooks scope cannot create or list endpoints either
    for (const run of [(c: Caller) => createWebhookEndpoint(ctx, c, { url: 'https://hooks.example.com/kerf' }), (c: Caller) => listWebhookEndpoints(ctx, c, {})]) {
      const denied = await refusal(() => run(callerWith(t.accountA, SCOPES.filter((s) => s !== 'webhooks'))));
      assert.equal(denied.code, 'insufficient_scope');
      assert.equal(denied.details?.required_scope, 'webhooks');
    }
    assert.equal((await listWebhookEndpoints(ctx, callerWith(t.accountA, ['webhooks']), {})).object, 'list');
    // catalogs are readable by every caller
    const page = await listCatalog(ctx, callerWith(t.accountA, []), { catalog: 'materials', limit: 1 });
    assert.equal(page.data.length, 1);
  });

  it('a use case checks its input whatever the transport: the same field is named as REST names it', async () => {
    const err = await refusal(() => createDfmReport(t.service.ctx, callerWith(t.accountA, SCOPES), { design_id: 'des_x', configuration: BAD_CONFIGURATION } as never));
    assert.equal(err.code, 'parameter_invalid');
    assert.equal(err.param, 'configuration.defaults.material_id');
  });

  it('the same bad configuration gives the same error code and param from POST /v1/dfm and from kerf dfm', async () => {
    const rest = await fetch(`${t.url}/v1/dfm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.keyA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ design_id: 'des_x', configuration: BAD_CONFIGURATION }),
    });
    assert.equal(rest.status, 422);
    const restError = ((await rest.json()) as { error: { code: string; param: string } }).error;
    const cli = spawnSync(process.execPath, ['bin/kerf.mjs', 'dfm', L_BRACKET, '--configuration', JSON.stringify(BAD_CONFIGURATION)], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(cli.status, 2, cli.stderr);
    const cliError = (JSON.parse(cli.stderr.trim()) as { error: { code: string; param: string } }).error;
    assert.deepEqual({ code: cliError.code, param: cliError.param }, { code: restError.code, param: restError.param });
  });

  it('a file quote whose configuration the use case refuses ends failed with that code at once, not retried into analysis_failed', async () => {
    const request = { quantity: 1, configuration: { parts: [{ part_id: 'prt_not_in_this_file' }] } };
    const res = await fetch(`${t.url}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.keyA}`, prefer: 'wait=30' },
      body: stepForm(`${ROOT}${L_BRACKET}`, { request: JSON.stringify(request) }),
    });
    const quote = (await res.json()) as { status: string; error: { code: string; message: string } | null };
    assert.equal(quote.status, 'failed');
    assert.equal(quote.error?.code, 'invalid_configuration');
    assert.match(quote.error!.message, /prt_not_in_this_file/);
  });
});
