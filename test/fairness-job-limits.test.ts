// Every kind of background work an account's requests cause counts toward its limit, not analyses
// only: DFM reports and quotes that would queue production files are refused 429 too_many_jobs at
// the limit. System jobs (reconciling charges) run in a lane of their own, so a backlog of them never
// holds customer work, nor customer work them. Real service, real engine, store on disk.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobWorker, type JobKindHandlers } from '@kerf/usecases';
import { fixtureBytes } from './helpers/fixtures.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('fairness: limits on every kind of job', () => {
  let t: TestService;
  let auth: Record<string, string>;
  before(async () => { t = await startTestService({ maxActiveJobsPerAccount: 2 }); auth = { authorization: `Bearer ${t.keyA}` }; });
  after(async () => { await t.close(); });

  const post = (path: string, body: unknown, key = t.keyA): Promise<Response> =>
    fetch(`${t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('reports and quotes that would queue production files beyond the limit get 429 too_many_jobs', async () => {
    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'l.step');
    const design = (await (await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { ...auth, prefer: 'wait=60' }, body: form })).json()) as { id: string; status: string };
    assert.equal(design.status, 'ready');
    const materials = ((await (await fetch(`${t.url}/v1/materials?limit=100`, { headers: auth })).json()) as { data: Array<{ id: string; thickness_mm: number; bendable: boolean; available: boolean }> }).data;
    const material = materials.filter((m) => m.bendable && m.available).sort((x, y) => Math.abs(x.thickness_mm - 2) - Math.abs(y.thickness_mm - 2))[0];
    const configuration = { defaults: { material_id: material.id } };
    // nothing runs from here on: every job queued stays queued
    await t.service.worker.stop();

    // each POST /v1/dfm keeps a report of its own, with a production-files job of its own
    for (let i = 0; i < 2; i++) {
      const r = await post('/v1/dfm', { design_id: design.id, configuration });
      assert.equal(r.status, 201, await r.clone().text());
      assert.equal(((await r.json()) as { production_files: { status: string } }).production_files.status, 'pending');
    }
    const reportsBefore = (await t.service.store.documents('dfm_reports').list(t.accountA, { limit: 100 })).items.length;
    const refused = await post('/v1/dfm', { design_id: design.id, configuration });
    assert.equal(refused.status, 429, await refused.clone().text());
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After');
    const body = (await refused.json()) as { error: { code: string; retryable: boolean } };
    assert.equal(body.error.code, 'too_many_jobs');
    assert.equal(body.error.retryable, true);

    const quote = await post('/v1/quotes', { items: [{ design_id: design.id, quantity: 1, configuration }] });
    assert.equal(quote.status, 429, 'a quote whose report would queue files is refused too');
    assert.equal(((await quote.json()) as { error: { code: string } }).error.code, 'too_many_jobs');
    assert.equal((await t.service.store.documents('dfm_reports').list(t.accountA, { limit: 100 })).items.length, reportsBefore, 'refused requests kept no report');

    // a report without production files queues nothing and is not refused
    const noFiles = await post('/v1/dfm', { design_id: design.id, configuration, generate_production_files: false });
    assert.equal(noFiles.status, 201);
    // the limit is the account's: another account still uploads
    const formB = new FormData();
    formB.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'b.step');
    assert.equal((await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${t.keyB}` }, body: formB })).status, 202);
    // and A's own uploads count against the same limit
    const formA = new FormData();
    formA.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'a2.step');
    assert.equal((await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: auth, body: formA })).status, 429);
  });

  it('system jobs run in a lane of their own: a backlog of them does not hold customer work, and they take one slot', async () => {
    const released: Array<() => void> = [];
    let systemRunning = 0;
    let systemMax = 0;
    let systemStarted = 0;
    let customerDone = 0;
    const handlers: Record<string, JobKindHandlers> = {
      test_customer_work: { async run() { customerDone++; }, async failed() {} },
      test_system_work: {
        system: true,
        async run() {
          systemRunning++;
          systemStarted++;
          systemMax = Math.max(systemMax, systemRunning);
          await new Promise<void>((r) => released.push(r));
          systemRunning--;
        },
        async failed() {},
      },
    };
    const store = t.service.store;
    // the system backlog is older, so a single shared lane would hand it out first
    for (let i = 0; i < 3; i++) await store.jobs.enqueue({ kind: 'test_system_work', resourceId: `sys_${i}`, accountId: t.accountB });
    for (let i = 0; i < 2; i++) await store.jobs.enqueue({ kind: 'test_customer_work', resourceId: `cus_${i}`, accountId: t.accountB });
    const worker = new JobWorker(t.service.ctx, handlers, { concurrency: 1, systemConcurrency: 1, pollMs: 20 });
    worker.start();
    try {
      const deadline = Date.now() + 30_000;
      while (customerDone < 2) {
        assert.ok(Date.now() < deadline, `customer jobs done: ${customerDone} of 2 while system jobs hold their lane`);
        await sleep(20);
      }
      assert.equal(systemMax, 1, 'one system job at a time');
      while (systemStarted < 3 || systemRunning > 0) {
        assert.ok(Date.now() < deadline, 'every system job ran');
        released.shift()?.();
        await sleep(20);
      }
      assert.equal(systemMax, 1);
    } finally {
      for (const r of released) r();
      await worker.stop(1000);
    }
  });
});

describe('fairness: the job limit holds under concurrency', () => {
  let t: TestService;
  const LIMIT = 5;
  before(async () => { t = await startTestService({ maxActiveJobsPerAccount: LIMIT }); await t.service.worker.stop(); });
  after(async () => { await t.close(); });

  // each upload its own bytes (a STEP comment), so none reuses another's analysis
  const upload = (i: number): Blob => new Blob([Buffer.from(fixtureBytes(L_BRACKET)).toString('latin1').replace('ISO-10303-21;', `ISO-10303-21;\n/* upload ${i} */`)]);

  it('of 40 parallel uploads and file quotes, the limit\'s number are accepted and the rest get 429 too_many_jobs, keeping nothing', async () => {
    const auth = { authorization: `Bearer ${t.keyA}` };
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => {
      const form = new FormData();
      if (i % 2) form.append('request', JSON.stringify({ quantity: 1 }));
      form.append('file', upload(i), `part-${i}.step`);
      return fetch(`${t.url}${i % 2 ? '/v1/quotes' : '/v1/analyze'}`, { method: 'POST', headers: auth, body: form });
    }));
    const statuses = answers.map((r) => r.status);
    const accepted = statuses.filter((s) => s === 201 || s === 202).length;
    assert.equal(accepted, LIMIT, JSON.stringify(statuses));
    for (const r of answers.filter((a) => a.status === 429)) {
      assert.ok(Number(r.headers.get('retry-after')) > 0, 'Retry-After');
      assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'too_many_jobs');
    }
    assert.equal(statuses.filter((s) => s !== 429 && s !== 201 && s !== 202).length, 0, JSON.stringify(statuses));
    assert.equal(await t.service.store.jobs.countActive(t.accountA), LIMIT);
    assert.equal((await t.service.store.designs.list(t.accountA, { limit: 100 })).items.length, LIMIT, 'a refused upload keeps no design');
  });
});

