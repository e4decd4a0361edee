// Scale-out: two `kerf serve` processes on one store; 20 uploads spread over both are each
// analyzed exactly once (one job, one claim, one "job started" across both processes' logs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureBytes } from './helpers/fixtures.ts';
import { childServiceGroup, demoKey, spawnServe, stopChild } from './helpers/child.ts';
import { freePort } from './helpers/service.ts';

const FILES = ['l_t2_r2.step', 'hat_t2_r2.4.step', 'acute45_t3_r4.step', 'l_t2_holes_near_bend.step']
  .map((f) => new URL(`../fixtures/sheet/${f}`, import.meta.url).pathname);
const UPLOADS = 20;

describe('two service processes on one store', () => {
  const group = childServiceGroup('kerf-scale-');
  const { dir, children } = group;

  it(`analyzes each of ${UPLOADS} uploads exactly once`, async () => {
    const env = { KERF_DATA_DIR: dir, KERF_JOB_POLL_MS: '50' };
    const one = await spawnServe(env, await freePort());
    children.push(one);
    const demo = demoKey(one)!;
    const two = await spawnServe(env, await freePort());
    children.push(two);
    const procs = [one, two];

    const ids = await Promise.all(Array.from({ length: UPLOADS }, async (_, i) => {
      const form = new FormData();
      const file = FILES[i % FILES.length];
      form.append('file', new Blob([fixtureBytes(file)]), `upload-${i}.step`);
      const r = await fetch(`${procs[i % 2].url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${demo.key}` }, body: form });
      assert.equal(r.status, 202);
      return ((await r.json()) as { id: string }).id;
    }));
    assert.equal(new Set(ids).size, UPLOADS);

    const deadline = Date.now() + 180_000;
    for (const [i, id] of ids.entries()) {
      for (;;) {
        // Read through either process: both serve every design of the store.
        const r = await fetch(`${procs[(i + 1) % 2].url}/v1/designs/${id}`, { headers: { authorization: `Bearer ${demo.key}` } });
        const d = (await r.json()) as { status: string };
        if (d.status === 'ready') break;
        assert.notEqual(d.status, 'failed', JSON.stringify(d));
        assert.ok(Date.now() < deadline, `${id} still ${d.status}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    }

    const store = await group.store();
    const workers = new Set<string>();
    for (const id of ids) {
      const jobs = await store.jobs.listForResource(id);
      assert.equal(jobs.length, 1, `${id}: one job`);
      assert.equal(jobs[0].status, 'done');
      assert.equal(jobs[0].attempts, 1, `${id}: claimed once`);
      if (jobs[0].workerId) workers.add(jobs[0].workerId);
    }
    const started = procs.flatMap((p) => p.lines.filter((l) => l.msg === 'job started' && l.kind === 'analyze_design').map((l) => String(l.resource_id)));
    assert.equal(started.length, UPLOADS, 'one analysis per upload across both processes');
    assert.deepEqual([...new Set(started)].sort(), [...ids].sort());
    const perProcess = procs.map((p) => p.lines.filter((l) => l.msg === 'job started').length);
    assert.ok(perProcess.every((n) => n > 0), `both processes did work: ${perProcess.join(' + ')}`);
    assert.ok(workers.size >= 1);
    for (const p of procs) assert.equal(await stopChild(p), 0);
  });
});
