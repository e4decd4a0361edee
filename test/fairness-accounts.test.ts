// Fair, bounded background work across accounts: one account's uploads wait in the shared queue only
// up to its limit (then 429 too_many_jobs with Retry-After), and the job worker takes accounts in
// turn, so another account's upload is analysed second, not after the whole backlog. Real service,
// real engine, store on disk.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureBytes } from './helpers/fixtures.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function upload(t: TestService, key: string, name: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([fixtureBytes(L_BRACKET)]), name);
  return fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
}

describe('fairness across accounts', () => {
  it('an account at its limit of queued analyses gets 429 too_many_jobs; another account does not', async () => {
    const t = await startTestService({ maxActiveJobsPerAccount: 3 }, { jobs: false });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await upload(t, t.keyA, `a${i}.step`)).status, 202);
      const refused = await upload(t, t.keyA, 'a3.step');
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      const body = (await refused.json()) as { error: { code: string; retryable: boolean } };
      assert.equal(body.error.code, 'too_many_jobs');
      assert.equal(body.error.retryable, true);
      assert.equal((await upload(t, t.keyB, 'b0.step')).status, 202, 'the limit is per account');
      assert.equal((await t.service.store.designs.list(t.accountA)).items.length, 3, 'the refused upload stored nothing');
    } finally {
      await t.close();
    }
  });

  it('the worker takes accounts in turn: B\'s one upload is analysed second behind A\'s backlog of six', async () => {
    const t = await startTestService({ engine: 'pool', engineThreads: 1 }, { jobs: false });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push(((await (await upload(t, t.keyA, `a${i}.step`)).json()) as { id: string }).id);
      const b = ((await (await upload(t, t.keyB, 'b.step')).json()) as { id: string }).id;
      t.service.worker.start();
      const deadline = Date.now() + 120_000;
      while ((await t.service.store.designs.get(t.accountB, b))?.status !== 'ready') {
        assert.ok(Date.now() < deadline, 'B\'s design never ready');
        await sleep(20);
      }
      let readyA = 0;
      for (const id of ids) if ((await t.service.store.designs.get(t.accountA, id))?.status === 'ready') readyA++;
      assert.ok(readyA <= 2, `${readyA} of A's 6 designs were analysed before B's one`);
    } finally {
      await t.close();
    }
  });
});
