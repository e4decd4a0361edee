// Designs over real HTTP: analyze -> poll -> parts -> model/STEP/image redirects and downloads,
// Prefer: wait, idempotent uploads (also under concurrency), and account isolation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, stepForm } from './helpers/client.ts';

const PLATE = new URL('../../shared/corpus/real/ender3-e-plate.step', import.meta.url).pathname;
const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const ASSEMBLY = new URL('../fixtures/assembly/asm_brackets_mirror.step', import.meta.url).pathname;

describe('designs over HTTP', () => {
  let t: TestService;
  let a: Client;
  let b: Client;

  before(async () => {
    t = await startTestService();
    ({ a, b } = await clientsFor(t));
  });
  after(async () => { await t.close(); });

  it('analyzes an upload: 202 queued, then ready on poll with parts and instance counts', async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(L_BRACKET) });
    assert.ok(r.status === 202 || r.status === 200, `status ${r.status}: ${r.text}`);
    assert.match(r.body.id, /^des_/);
    assert.equal(r.body.object, 'design');
    assert.equal(r.body.status_url, `${t.url}/v1/designs/${r.body.id}`);
    assert.equal(r.headers.get('location'), r.body.status_url);
    if (r.status === 202) assert.ok(['queued', 'processing'].includes(r.body.status));
    const d = await pollDesign(a, r.body.id);
    assert.equal(d.status, 'ready', JSON.stringify(d.error));
    assert.equal(d.id, r.body.id, 'design id stays stable');
    assert.equal(d.parts.length, 1);
    assert.equal(d.parts[0].instance_count, 1);
    assert.equal(d.suggested_process, 'sheet_metal');
    assert.equal(d.name, 'l_t2_r2.step');
    assert.equal(d.part_instances.length, 1);
    assert.equal(d.parts[0].model_url, `${t.url}/v1/designs/${d.id}/parts/${d.parts[0].id}/model`);
  });

  it('Prefer: wait=N returns 200 with the finished design', async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(PLATE), headers: { prefer: 'wait=60' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'ready');
    assert.equal(r.headers.get('preference-applied'), 'wait=60');
    assert.ok(r.body.parts.length >= 1);
  });

  it('an assembly gives unique parts with instance counts', async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(ASSEMBLY), headers: { prefer: 'wait=60' } });
    assert.equal(r.status, 200, r.text);
    const d = r.body;
    assert.ok(d.parts.length >= 2, `expected several unique parts, got ${d.parts.length}`);
    const instances = d.parts.reduce((n: number, p: { instance_count: number }) => n + p.instance_count, 0);
    assert.equal(instances, d.part_instances.length);
    for (const p of d.parts) assert.equal(d.part_instances.filter((i: { part_id: string }) => i.part_id === p.id).length, p.instance_count);
  });

  it('serves design and part files through 307 to signed, short-lived URLs', async () => {
    const d = (await a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { prefer: 'wait=60' } })).body;
    const part = d.parts[0];
    const model = await a.download(`/v1/designs/${d.id}/model`);
    assert.equal(model.status, 200);
    assert.equal(model.contentType, 'model/gltf-binary');
    assert.equal(Buffer.from(model.bytes.subarray(0, 4)).toString('latin1'), 'glTF');
    assert.match(model.location, new RegExp(`^${t.url}/v1/downloads/`));

    const partModel = await a.download(`/v1/designs/${d.id}/parts/${part.id}/model`);
    assert.equal(Buffer.from(partModel.bytes.subarray(0, 4)).toString('latin1'), 'glTF');

    for (const view of ['source', 'normalized']) {
      const step = await a.download(`/v1/designs/${d.id}/parts/${part.id}/step?view=${view}`);
      assert.equal(step.status, 200, view);
      assert.ok(Buffer.from(step.bytes).toString('latin1').startsWith('ISO-10303-21'), `${view} is a STEP file`);
    }
    const svg = await a.download(`/v1/designs/${d.id}/parts/${part.id}/image`);
    assert.equal(svg.contentType, 'image/svg+xml');
    assert.match(Buffer.from(svg.bytes).toString('utf8'), /<svg/);
    const png = await a.download(`/v1/designs/${d.id}/image?format=png&width=200`);
    assert.equal(png.contentType, 'image/png');
    assert.deepEqual([...png.bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);

    if (part.flat_pattern) {
      const flat = await a.download(`/v1/designs/${d.id}/parts/${part.id}/step?view=flat`);
      assert.ok(Buffer.from(flat.bytes).toString('latin1').startsWith('ISO-10303-21'));
    }

    // The signature is the credential: a tampered token is refused.
    const tampered = model.location.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const res = await fetch(tampered);
    assert.equal(res.status, 403);
    const body = (await res.json()) as { error: { code: string; type: string } };
    assert.equal(body.error.code, 'invalid_signature');
    assert.equal(body.error.type, 'permission_error');
  });

  it('replays an upload with the same Idempotency-Key and refuses a different file under it', async () => {
    const key = `idem-${Date.now()}`;
    const first = await a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { 'idempotency-key': key } });
    assert.ok([200, 202].includes(first.status));
    const again = await a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { 'idempotency-key': key } });
    assert.equal(again.status, first.status);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    const other = await a.post('/v1/analyze', { form: stepForm(PLATE), headers: { 'idempotency-key': key } });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
    assert.equal(other.body.error.type, 'idempotency_error');
    assert.equal(other.body.error.retryable, false);
    // Keys are per account: B may use the same key for its own request.
    const bUse = await b.post('/v1/analyze', { form: stepForm(PLATE), headers: { 'idempotency-key': key } });
    assert.ok([200, 202].includes(bUse.status), bUse.text);
    assert.notEqual(bUse.body.id, first.body.id);
  });

  it('concurrent identical uploads with one key create exactly one design', async () => {
    const key = `conc-${Date.now()}`;
    const before = (await t.service.store.designs.list(t.accountA, { limit: 1000 })).items.length;
    const results = await Promise.all(Array.from({ length: 6 }, () => a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { 'idempotency-key': key } })));
    const ok = results.filter((r) => r.status === 200 || r.status === 202);
    const busy = results.filter((r) => r.status === 409);
    assert.equal(ok.length + busy.length, results.length, results.map((r) => `${r.status} ${r.text.slice(0, 120)}`).join('\n'));
    assert.ok(ok.length >= 1);
    assert.equal(new Set(ok.map((r) => r.body.id)).size, 1, 'every success names the same design');
    for (const r of busy) {
      assert.equal(r.body.error.code, 'idempotency_key_in_use');
      assert.equal(r.body.error.retryable, true);
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
    }
    const afterCount = (await t.service.store.designs.list(t.accountA, { limit: 1000 })).items.length;
    assert.equal(afterCount - before, 1);
  });

  it('concurrent identical JSON writes with one key create exactly one resource', async () => {
    const d = (await a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { prefer: 'wait=60' } })).body;
    const key = `conc-json-${Date.now()}`;
    const body = { items: [{ design_id: d.id, quantity: 2 }] };
    const results = await Promise.all(Array.from({ length: 6 }, () => a.post('/v1/quotes', { json: body, headers: { 'idempotency-key': key } })));
    const created = results.filter((r) => r.status === 201);
    const replayed = results.filter((r) => r.status === 200);
    const busy = results.filter((r) => r.status === 409);
    assert.equal(created.length, 1, results.map((r) => `${r.status}`).join(','));
    assert.equal(created.length + replayed.length + busy.length, results.length);
    for (const r of replayed) { assert.equal(r.body.id, created[0].body.id); assert.equal(r.headers.get('idempotent-replayed'), 'true'); }
    for (const r of busy) assert.equal(r.body.error.code, 'idempotency_key_in_use');
    const quotes = await t.service.store.documents('quotes').list(t.accountA, { limit: 1000 });
    assert.equal(quotes.items.filter((q) => (q.data as { items: Array<{ design_id: string }> }).items[0].design_id === d.id).length, 1);
  });

  it("another account's design and files are 404, never 403", async () => {
    const d = (await a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { prefer: 'wait=60' } })).body;
    const p = d.parts[0].id;
    for (const path of [
      `/v1/designs/${d.id}`, `/v1/designs/${d.id}/model`, `/v1/designs/${d.id}/image`,
      `/v1/designs/${d.id}/parts/${p}/model`, `/v1/designs/${d.id}/parts/${p}/step`, `/v1/designs/${d.id}/parts/${p}/image`,
    ]) {
      const r = await b.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error.type, 'not_found_error');
    }
    assert.equal((await a.get(`/v1/designs/${d.id}`)).status, 200);
    assert.equal((await a.get(`/v1/designs/${d.id}/parts/prt_nope/model`)).status, 404);
  });
});
