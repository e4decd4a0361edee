// Durability: a design whose process is killed (SIGKILL) while analyzing it is finished by the
// next process on the same store, once the dead worker's lease has run out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureBytes } from './helpers/fixtures.ts';
import { childServiceGroup, demoKey, spawnServe, stopChild } from './helpers/child.ts';
import { freePort } from './helpers/service.ts';

const BIG = new URL('../../shared/corpus/real/ender3-sheetmetal-enclosure-bottom.step', import.meta.url).pathname;

describe('restart', () => {
  const group = childServiceGroup('kerf-restart-');
  const { dir, children } = group;

  it('finishes a design that was processing when its process was killed', async () => {
    // The killed process's lease is short, so the next one takes the job over soon. Under load a
    // process can miss renewing such a lease (a stall of a second or two): the killed one runs one
    // engine thread, so it never takes its own lapsed job a second time before the kill, and the next
    // one holds a long lease, so a stall of its own cannot hand the job out again either (seen: attempts 3).
    const env = { KERF_DATA_DIR: dir, KERF_JOB_POLL_MS: '100' };
    const first = await spawnServe({ ...env, KERF_JOB_LEASE_MS: '1500', KERF_ENGINE_THREADS: '1' }, await freePort());
    children.push(first);
    const demo = demoKey(first);
    assert.ok(demo, 'the first start on an empty store prints the demo key');
    const store = await group.store();

    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(BIG)]), 'enclosure.step');
    const up = await fetch(`${first.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${demo.key}` }, body: form });
    assert.equal(up.status, 202);
    const design = (await up.json()) as { id: string };

    // Kill the process the moment its worker has taken the design (read from the shared store).
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rec = await store.designs.get(demo.account, design.id);
      if (rec?.status === 'processing') break;
      assert.notEqual(rec?.status, 'ready', 'analysis finished before the kill: use a slower file');
      assert.ok(Date.now() < deadline, 'design never started processing');
      await new Promise((r) => setTimeout(r, 10));
    }
    first.proc.kill('SIGKILL');
    await first.stopped;
    assert.equal((await store.designs.get(demo.account, design.id))!.status, 'processing', 'killed mid-analysis');

    const second = await spawnServe({ ...env, KERF_JOB_LEASE_MS: '60000' }, await freePort());
    children.push(second);
    assert.equal(demoKey(second), null, 'no second demo account');
    let body: { status: string; parts: unknown[]; error: unknown } | null = null;
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      const r: Response = await fetch(`${second.url}/v1/designs/${design.id}`, { headers: { authorization: `Bearer ${demo.key}` } });
      assert.equal(r.status, 200);
      body = (await r.json()) as typeof body;
      if (body!.status === 'ready' || body!.status === 'failed') break;
      await new Promise((res) => setTimeout(res, 200));
    }
    assert.equal(body!.status, 'ready', JSON.stringify(body!.error));
    assert.ok(body!.parts.length >= 1);
    const jobs = await store.jobs.listForResource(design.id);
    assert.equal(jobs.length, 1);
    assert.equal(jobs[0].status, 'done');
    assert.equal(jobs[0].attempts, 2, 'claimed once by the killed process, once after restart');
    assert.equal(await stopChild(second), 0, 'SIGTERM shuts down cleanly');
  });
  it('SIGTERM releases a running job at once; the next process finishes it', async () => {
    const env = { KERF_DATA_DIR: dir, KERF_JOB_LEASE_MS: '60000', KERF_JOB_POLL_MS: '100', KERF_SHUTDOWN_GRACE_MS: '0' };
    const first = await spawnServe(env, await freePort());
    children.push(first);
    const store = await group.store();
    // an account of its own: the demo account analysed this file above, and would reuse that analysis (issue 18.4)
    const account = await store.accounts.create({ email: 'restart-sigterm@kerf.local' });
    const key = (await store.apiKeys.create(account.id))!.api_key;
    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(BIG)]), 'enclosure-2.step');
    const up = await fetch(`${first.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const design = (await up.json()) as { id: string };
    const deadline = Date.now() + 30_000;
    while ((await store.designs.get(account.id, design.id))?.status !== 'processing') {
      assert.ok(Date.now() < deadline, 'design never started processing');
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(await stopChild(first, 'SIGTERM'), 0, 'clean exit');
    const [job] = await store.jobs.listForResource(design.id);
    assert.equal(job.status, 'queued', 'released, not left to its 60 s lease');
    assert.equal(job.attempts, 0, 'a run stopped by the shutdown is not counted as an attempt');

    const second = await spawnServe(env, await freePort());
    children.push(second);
    const until = Date.now() + 120_000;
    let status = '';
    while (Date.now() < until) {
      status = (await store.designs.get(account.id, design.id))!.status;
      if (status === 'ready' || status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 'ready');
    assert.equal(await stopChild(second), 0);
  });
});

