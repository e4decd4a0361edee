// Multipart forms take only the parts the API names (`file` on /v1/analyze; `file` and `request`
// on /v1/quotes), each once: a misspelled or extra field is an unknown-field error naming it, as in a
// JSON body, and a second `file` is refused instead of being dropped (#19.6).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, stepForm } from './helpers/client.ts';
import { OpenApiChecker } from './helpers/openapi.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const QUOTE_REQUEST = JSON.stringify({ quantity: 1, configuration: { material: 'mat_x' } });

function twoFiles(): FormData {
  const form = stepForm(L_BRACKET);
  form.append('file', new Blob([readFileSync(L_BRACKET)], { type: 'application/step' }), 'second.step');
  return form;
}

describe('multipart form fields', () => {
  let t: TestService;
  let a: Client;

  before(async () => {
    t = await startTestService();
    a = new Client(t.url, t.keyA, await OpenApiChecker.load(t.url));
  });
  after(async () => { await t?.close(); });

  it('POST /v1/analyze: an unknown field is parameter_unknown naming it and the accepted parts', async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(L_BRACKET, { k_factor: '0.9' }) });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.error.code, 'parameter_unknown');
    assert.equal(r.body.error.param, 'k_factor');
    assert.match(r.body.error.message, /'k_factor'.*`file`/);
  });

  it('POST /v1/analyze: a second `file` part is refused, not dropped', async () => {
    const r = await a.post('/v1/analyze', { form: twoFiles() });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.code, 'invalid_multipart');
    assert.equal(r.body.error.param, 'file');
    assert.match(r.body.error.message, /more than one `file` part/);
  });

  it('POST /v1/quotes (file form): an unknown field or a repeated `request` is refused', async () => {
    const extra = await a.post('/v1/quotes', { form: stepForm(L_BRACKET, { request: QUOTE_REQUEST, quantity: '5' }) });
    assert.equal(extra.status, 422, extra.text);
    assert.equal(extra.body.error.code, 'parameter_unknown');
    assert.equal(extra.body.error.param, 'quantity');
    assert.match(extra.body.error.message, /`file`, `request`/);

    // one well-formed request part is accepted: a quote (the configuration above is refused on its own)
    const material = (await a.get('/v1/materials?limit=1')).body.data[0].id;
    const once = await a.post('/v1/quotes', { form: stepForm(L_BRACKET, { request: JSON.stringify({ quantity: 1, configuration: { defaults: { material_id: material } } }) }) });
    assert.ok([201, 202].includes(once.status), `one request part is accepted: ${once.text}`);
    assert.equal(once.body.object, 'quote');
    const form = stepForm(L_BRACKET, { request: QUOTE_REQUEST });
    form.append('request', QUOTE_REQUEST);
    const dup = await a.post('/v1/quotes', { form });
    assert.equal(dup.status, 400, dup.text);
    assert.equal(dup.body.error.param, 'request');

    const files = twoFiles();
    files.append('request', QUOTE_REQUEST);
    assert.equal((await a.post('/v1/quotes', { form: files })).status, 400);
  });

  it('the forms live clients send are accepted unchanged', async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(L_BRACKET) });
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.object, 'design');
  });
});
