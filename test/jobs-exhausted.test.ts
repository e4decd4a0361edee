// The job worker and the store's `exhausted` flag: a job whose every run died (e.g. a file that
// crashes the engine) is not run again; its design ends failed with analysis_failed. A job whose
// design does not exist is completed without doing anything.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { fixtureBytes } from './helpers/fixtures.ts';
import { ANALYZE_JOB, sourceKey } from '@kerf/usecases/testing';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('job worker: exhausted and orphaned jobs', () => {
  let t: TestService;
  before(async () => { t = await startTestService({}, { jobs: false }); });
  after(async () => { await t.close(); });

  it('a design whose analysis runs all died ends failed (analysis_failed) and is not analyzed again', async () => {
    const { store } = t.service;
    const id = 'des_exhaustedcrash000000001';
    const bytes = fixtureBytes(L_BRACKET); // a good file: only the flag may stop the analysis
    await store.blobs.put(sourceKey(id), bytes);
    await store.designs.create(t.accountA, { id, name: 'crash.step', sourceBlobKey: sourceKey(id), sourceSize: bytes.length, sourceSha256: '0'.repeat(64), job: { kind: ANALYZE_JOB, maxAttempts: 2 } });
    // Two runs that die: claimed with a 1 ms lease and never reported.
    for (let i = 0; i < 2; i++) {
      const job = await until('a claim', async () => { await sleep(5); return store.jobs.claim(`dead-${i}`, 1, { kinds: [ANALYZE_JOB] }); });
      assert.equal(job.exhausted, false);
    }
    await sleep(5);
    t.service.worker.start();
    const rec = await until('the design to settle', async () => {
      const r = await store.designs.get(t.accountA, id);
      return r && (r.status === 'ready' || r.status === 'failed') ? r : null;
    });
    assert.equal(rec.status, 'failed');
    assert.equal(rec.error?.code, 'analysis_failed');
    assert.match(rec.error!.message, /crashed repeatedly/);
    // the worker fails the design first and then its job (a crash between them re-runs the
    // exhausted job, which fails the design again), so the job's record may follow a moment later
    const job = await until('the job to settle', async () => {
      const [j] = await store.jobs.listForResource(id);
      return j && j.status !== 'running' && j.status !== 'queued' ? j : null;
    });
    assert.equal(job.status, 'failed');
    assert.equal(job.lastError?.code, 'analysis_failed');
  });

  it('a job for a design that does not exist is completed without doing anything', async () => {
    const { store } = t.service;
    t.service.worker.start();
    const job = await store.jobs.enqueue({ kind: ANALYZE_JOB, resourceId: 'des_neverwritten00000000001', accountId: t.accountA });
    t.service.worker.wake();
    const done = await until('the job to finish', async () => {
      const j = await store.jobs.get(job.id);
      return j && (j.status === 'done' || j.status === 'failed') ? j : null;
    });
    assert.equal(done.status, 'done');
    assert.equal(await store.designs.get(t.accountA, 'des_neverwritten00000000001'), null);
  });
});
