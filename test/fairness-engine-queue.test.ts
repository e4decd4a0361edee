// One account's flood of interactive work (images at distinct widths) must not starve another
// account's analysis: a full engine queue delays a job (its attempts kept) instead of failing it, and
// renders whose clients went away are dropped before they reach the engine. Real service, real
// engine pool (one thread, a queue of eight: a flood fills it quickly, a few renders fit), store on disk.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '@kerf/engine';
import { JobWorker } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { engineIdle, engineStats } from './helpers/engine-stats.ts';
import { fixtureBytes } from './helpers/fixtures.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function upload(t: TestService, key: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'l.step');
  const r = await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  assert.equal(r.status, 202, await r.clone().text());
  return ((await r.json()) as { id: string }).id;
}

async function settled(t: TestService, key: string, id: string, timeoutMs = 90_000): Promise<{ status: string; error: { code: string } | null }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const d = (await (await fetch(`${t.url}/v1/designs/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string; error: { code: string } | null };
    if (d.status === 'ready' || d.status === 'failed') return d;
    assert.ok(Date.now() < deadline, `design ${id} still ${d.status}`);
    await sleep(100);
  }
}

/** An image request at this width that the client gives up on when `signal` aborts. */
function render(t: TestService, key: string, id: string, width: number, signal: AbortSignal): Promise<number> {
  return fetch(`${t.url}/v1/designs/${id}/image?width=${width}&format=png`, { headers: { authorization: `Bearer ${key}` }, redirect: 'manual', signal })
    .then(async (r) => { await r.arrayBuffer(); return r.status; }, () => 0);
}

describe('fairness: the engine queue under one account\'s flood', () => {
  let t: TestService;
  let floodDesign: string;
  before(async () => {
    t = await startTestService({ engine: 'pool', engineThreads: 1, engineMaxQueue: 8 });
    floodDesign = await upload(t, t.keyA);
    assert.equal((await settled(t, t.keyA, floodDesign)).status, 'ready');
  });
  after(async () => { await t.close(); });

  it('another account\'s upload is analyzed while the first floods renders', async () => {
    const stop = new AbortController();
    let width = 200;
    const flooders = Array.from({ length: 24 }, async () => {
      while (!stop.signal.aborted) await render(t, t.keyA, floodDesign, width++, stop.signal);
    });
    await sleep(500);
    const id = await upload(t, t.keyB);
    const d = await settled(t, t.keyB, id);
    stop.abort();
    await Promise.all(flooders);
    assert.equal(d.status, 'ready', `B's design: ${JSON.stringify(d.error)}`);
    await engineIdle(t);
  });

  it('a job that meets a full engine queue is deferred with its attempts kept', async () => {
    const kind = 'test_busy_engine';
    let runs = 0;
    const worker = new JobWorker(t.service.ctx, {
      [kind]: {
        async run() { if (++runs <= 4) throw new EngineError('queue_full', 'the engine queue is full'); },
        async failed() { throw new Error('must not fail for good'); },
      },
    }, { pollMs: 20 });
    worker.start();
    try {
      const job = await t.service.store.jobs.enqueue({ kind, resourceId: 'busy-1', accountId: t.accountB, maxAttempts: 2 });
      const deadline = Date.now() + 60_000;
      let j = job;
      while (j.status !== 'done' && j.status !== 'failed') { assert.ok(Date.now() < deadline, 'job never finished'); await sleep(50); j = (await t.service.store.jobs.get(job.id))!; }
      assert.equal(j.status, 'done');
      assert.equal(runs, 5);
      assert.equal(j.attempts, 1, 'only the run that got through counts');
    } finally {
      await worker.stop();
    }
  });

  it('renders whose clients went away are dropped, not run', async () => {
    const ranBefore = (await engineIdle(t)).completed + engineStats(t).failed;
    const gone = new AbortController();
    const widths = Array.from({ length: 6 }, (_, i) => 3000 + i);
    const requests = widths.map((w) => render(t, t.keyA, floodDesign, w, gone.signal));
    // every request has reached the service once one of them runs in the engine
    const deadline = Date.now() + 30_000;
    while (engineStats(t).running === 0) { assert.ok(Date.now() < deadline, 'no render started'); await sleep(10); }
    await sleep(300);
    gone.abort();
    await Promise.all(requests);
    const s = await engineIdle(t);
    const ran = s.completed + s.failed - ranBefore;
    assert.ok(ran <= 2, `${ran} of ${widths.length} abandoned renders ran in the engine`);
  });
});
