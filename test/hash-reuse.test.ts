// Content-hash reuse (issue 18.4): the same account uploading the same bytes again gets a new design
// that is ready at once with the earlier analysis and no engine call or job; another account's
// identical upload is analysed afresh (a reuse across accounts would tell one what another uploaded).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, stepForm } from './helpers/client.ts';
import { PoolEngine } from '@kerf/service';

const FIXTURE = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;

/** The real pool engine, counting analyses. */
class CountingPoolEngine extends PoolEngine {
  analyses = 0;
  override async analyze(...args: Parameters<PoolEngine['analyze']>) {
    this.analyses++;
    return super.analyze(...args);
  }
}

async function upload(c: Client, name = 'part.step'): Promise<any> {
  const r = await c.post('/v1/analyze', { form: stepForm(FIXTURE, {}, name) });
  assert.ok([200, 201, 202].includes(r.status), r.text);
  return r.body;
}

describe('content-hash reuse of analyses', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  let engine: CountingPoolEngine;
  let first: any;

  before(async () => {
    engine = new CountingPoolEngine({ threads: 1, timeoutMs: 120_000, maxMemoryMb: 2048 });
    t = await startTestService({}, { engine });
    ({ a, b } = await clientsFor(t));
    first = await pollDesign(a, (await upload(a)).id);
    assert.equal(first.status, 'ready');
    assert.equal(engine.analyses, 1);
  });
  after(async () => { await t?.close(); });

  it('the same account\'s second upload is a new design, ready in the response, with no engine call or job', async () => {
    const again = await upload(a, 'part-again.step');
    assert.notEqual(again.id, first.id);
    assert.equal(again.status, 'ready');
    assert.equal(again.name, 'part-again.step');
    assert.equal(engine.analyses, 1);
    assert.deepEqual(await t.service.store.jobs.listForResource(again.id), []);
    const got = (await a.get(`/v1/designs/${again.id}`)).body;
    assert.deepEqual(got.parts.map((p: any) => p.id), first.parts.map((p: any) => p.id));
    assert.deepEqual(got.parts.map((p: any) => p.detected_thickness_mm), first.parts.map((p: any) => p.detected_thickness_mm));
    assert.notEqual(got.review_url, first.review_url);
  });

  it('another account\'s identical upload is analysed afresh', async () => {
    const theirs = await upload(b);
    const jobs = await t.service.store.jobs.listForResource(theirs.id);
    assert.equal(jobs.filter((j) => j.kind === 'analyze_design').length, 1, JSON.stringify(jobs.map((j) => j.kind)));
    const ready = await pollDesign(b, theirs.id);
    assert.equal(ready.status, 'ready');
    assert.equal(engine.analyses, 2);
  });
});
