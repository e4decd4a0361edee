// Webhook durability across processes (the real `kerf serve` binary on one data dir): an event
// whose process is killed (SIGKILL) right after the state change is delivered by the next process,
// and two processes deliver each attempt once.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@kerf/store';
import { fixtureBytes } from './helpers/fixtures.ts';
import { demoKey, spawnServe, stopChild, type ChildService } from './helpers/child.ts';
import { freePort } from './helpers/service.ts';
import { Receiver, signedWith } from './helpers/receiver.ts';

const FILES = ['l_t2_r2.step', 'hat_t2_r2.4.step', 'acute45_t3_r4.step', 'l_t2_holes_near_bend.step']
  .map((f) => new URL(`../fixtures/sheet/${f}`, import.meta.url).pathname);

async function upload(url: string, key: string, file: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([fixtureBytes(file)]), name);
  const r = await fetch(`${url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  assert.equal(r.status, 202, await r.clone().text());
  return ((await r.json()) as { id: string }).id;
}

async function createEndpoint(url: string, key: string, hook: string): Promise<{ id: string; secret: string }> {
  const r = await fetch(`${url}/v1/webhook-endpoints`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: hook, events: ['design.ready'] }),
  });
  assert.equal(r.status, 201, await r.clone().text());
  return (await r.json()) as { id: string; secret: string };
}

describe('webhooks across processes', () => {
  const dirs: string[] = [];
  const children: ChildService[] = [];
  const stores: Store[] = [];
  const rx = new Receiver();
  after(async () => {
    for (const c of children) await stopChild(c, 'SIGKILL');
    for (const s of stores) await s.close();
    await rx.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('an event recorded just before the process is killed is delivered by the next process', async () => {
    await rx.start();
    const dir = mkdtempSync(join(tmpdir(), 'kerf-webhook-kill-'));
    dirs.push(dir);
    const env = { KERF_DATA_DIR: dir, KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', KERF_JOB_LEASE_MS: '1500', KERF_JOB_POLL_MS: '100' };
    const first = await spawnServe(env, await freePort());
    children.push(first);
    const demo = demoKey(first)!;
    const ep = await createEndpoint(first.url, demo.key, `${rx.url}/kill`);
    const store = await openStore({ dataDir: dir });
    stores.push(store);
    // The first process's deliveries get no answer: whatever it managed to send does not count.
    rx.answer = () => { /* hold the request open */ };
    const designId = await upload(first.url, demo.key, FILES[0], 'kill.step');
    const deadline = Date.now() + 60_000;
    while ((await store.designs.get(demo.account, designId))?.status !== 'ready') {
      assert.ok(Date.now() < deadline, 'design never became ready');
      await new Promise((r) => setTimeout(r, 5));
    }
    first.proc.kill('SIGKILL');
    await first.stopped;
    rx.answer = (_d, res) => { res.writeHead(200).end('ok'); };
    const answeredBefore = rx.deliveries.length;

    const second = await spawnServe(env, await freePort());
    children.push(second);
    await rx.until((all) => all.slice(answeredBefore).some((d) => d.path === '/kill' && d.body.data.id === designId), 'design.ready from the second process', 90_000);
    const d = rx.deliveries.slice(answeredBefore).find((x) => x.path === '/kill' && x.body.data.id === designId)!;
    assert.equal(d.body.type, 'design.ready');
    assert.equal(d.body.data.status, 'ready');
    assert.ok(signedWith(d, ep.secret, d.signatures[0]), 'signed with the endpoint secret');
    const all = rx.to('/kill').filter((x) => x.body.data.id === designId);
    assert.equal(new Set(all.map((x) => x.body.id)).size, 1, 'one event, however often it was sent');
    assert.equal(await stopChild(second), 0);
  });

  it('two processes on one data dir deliver each attempt once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kerf-webhook-two-'));
    dirs.push(dir);
    const env = { KERF_DATA_DIR: dir, KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', KERF_JOB_POLL_MS: '50' };
    const one = await spawnServe(env, await freePort());
    children.push(one);
    const demo = demoKey(one)!;
    const two = await spawnServe(env, await freePort());
    children.push(two);
    const ep = await createEndpoint(one.url, demo.key, `${rx.url}/two`);
    rx.answer = (_d, res) => { res.writeHead(204).end(); };
    const procs = [one, two];
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(procs[i % 2].url, demo.key, FILES[i % FILES.length], `two-${i}.step`)));
    await rx.until((all) => ids.every((id) => all.some((d) => d.path === '/two' && d.body.data.id === id)), 'design.ready of every upload', 180_000);
    // let any duplicate that was going to be sent arrive: wait until every delivery job is done
    const store = await openStore({ dataDir: dir });
    stores.push(store);
    const eventIds = [...new Set(rx.to('/two').map((d) => d.body.id))];
    for (const evt of eventIds) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const jobs = await store.jobs.listForResource(`${evt}:${ep.id}`);
        if (jobs.length >= 1 && jobs.every((j) => j.status === 'done')) break;
        assert.ok(Date.now() < deadline, `delivery job of ${evt}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const got = rx.to('/two');
    assert.equal(eventIds.length, ids.length, 'one design.ready event per design');
    assert.equal(got.length, ids.length, `each event delivered once: ${got.map((d) => d.body.id).join(', ')}`);
    for (const d of got) assert.ok(signedWith(d, ep.secret, d.signatures[0]));
    const log = await fetch(`${two.url}/v1/webhook-endpoints/${ep.id}/deliveries`, { headers: { authorization: `Bearer ${demo.key}` } });
    const body = (await log.json()) as { data: Array<{ attempt: number; status: string; event_id: string }> };
    assert.deepEqual(body.data.map((x) => [x.attempt, x.status]).sort(), ids.map(() => [1, 'succeeded']));
    const started = procs.flatMap((p) => p.lines.filter((l) => l.msg === 'webhook delivered'));
    assert.equal(started.length, ids.length, 'one delivery logged across both processes per event');
    for (const p of procs) assert.equal(await stopChild(p), 0);
  });
});
