// One account's heavy jobs never hold every engine thread (#33.2): with two threads, account A's
// backlog of large parts runs one at a time (KERF_ENGINE_THREADS_PER_ACCOUNT defaults to threads - 1),
// so account B's small part starts on the thread kept free and is ready while A's backlog is still
// being worked through, instead of waiting for one of A's jobs to end. Real service, real engine
// (worker pool), store on disk.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureBytes } from './helpers/fixtures.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const HEAVY = ['bend_holes_u_t1.5_r1.5.step', 'bend_holes_l_t2_r2.step', 'bend_holes_45_t1_r1.step', 'bend_holes_30_t0.8_r0.8.step'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function upload(t: TestService, key: string, file: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([fixtureBytes(`fixtures/sheet/${file}`)]), file);
  const r = await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  assert.equal(r.status, 202, await r.clone().text());
  return ((await r.json()) as { id: string }).id;
}

async function runningJobs(t: TestService, designIds: string[]): Promise<number> {
  let n = 0;
  for (const id of designIds) n += (await t.service.store.jobs.listForResource(id)).filter((j) => j.status === 'running').length;
  return n;
}

async function readyCount(t: TestService, accountId: string, designIds: string[]): Promise<number> {
  let n = 0;
  for (const id of designIds) if ((await t.service.store.designs.get(accountId, id))?.status === 'ready') n++;
  return n;
}

describe('an engine thread kept free of any one account', () => {
  it('two threads: A\'s four large parts run one at a time; B\'s small part is ready while A\'s backlog is still running', async () => {
    const t = await startTestService({ engine: 'pool', engineThreads: 2 }, { jobs: false });
    let sampling = true;
    try {
      const a: string[] = [];
      for (const f of HEAVY) a.push(await upload(t, t.keyA, f));
      let mostRunningA = 0;
      const sampler = (async () => {
        while (sampling) { mostRunningA = Math.max(mostRunningA, await runningJobs(t, a)); await sleep(20); }
      })();
      t.service.worker.start();
      const deadline = Date.now() + 180_000;
      while ((await runningJobs(t, a)) === 0) { assert.ok(Date.now() < deadline, 'A\'s jobs never started'); await sleep(20); }
      await sleep(300); // the worker has had every chance to claim a second of A's jobs
      const b = await upload(t, t.keyB, 'l_t2_r2.step');
      while ((await t.service.store.designs.get(t.accountB, b))?.status !== 'ready') {
        assert.ok(Date.now() < deadline, 'B\'s design never ready');
        await sleep(20);
      }
      const aReady = await readyCount(t, t.accountA, a);
      sampling = false;
      await sampler;
      assert.equal(mostRunningA, 1, `A ran ${mostRunningA} jobs at once on 2 threads`);
      assert.ok(aReady <= HEAVY.length - 2, `${aReady} of A's ${HEAVY.length} large parts were done before B's small one`);
    } finally {
      sampling = false;
      await t.close();
    }
  });
});
