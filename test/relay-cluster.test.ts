// The event relay under `kerf serve` with KERF_WORKERS=2: one worker's relay holds the store lease;
// the other passes its wakes on over the cluster's IPC, so an event it records is handed on at once
// rather than at the holder's next poll. The poll is set to a minute here, longer than the test waits
// for any delivery: every event recorded by the worker without the lease is delivered only because
// its wake was passed on.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './helpers/service.ts';
import { demoKey, spawnServe, stopChild, type ChildService } from './helpers/child.ts';
import { fixtureBytes } from './helpers/fixtures.ts';
import { Receiver } from './helpers/receiver.ts';

const FIXTURE = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
/** Quotes made one after another on fresh connections: the primary's round-robin hands them to both workers. */
const QUOTES = 6;

describe('event relay across cluster workers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-relay-cluster-'));
  const rx = new Receiver();
  let child: ChildService | undefined;
  after(async () => {
    if (child) await stopChild(child, 'SIGKILL');
    await rx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an event recorded by the worker without the lease is handed on by the holder at once', async () => {
    await rx.start();
    child = await spawnServe({
      KERF_DATA_DIR: dir, KERF_WORKERS: '2', KERF_ENGINE_THREADS: '1', KERF_RATE_LIMIT: '0',
      KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', KERF_JOB_POLL_MS: '60000',
    }, await freePort());
    const listening = (): Set<unknown> => new Set(child!.lines.filter((l) => l.msg === 'kerf listening').map((l) => l.pid));
    const deadline = Date.now() + 60_000;
    while (listening().size < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(listening().size, 2, 'two processes listening');
    const demo = demoKey(child);
    assert.ok(demo);
    const auth = { authorization: `Bearer ${demo.key}` };
    const post = (path: string, body: string) => fetch(`${child!.url}${path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', connection: 'close' }, body });
    const ep = await post('/v1/webhook-endpoints', JSON.stringify({ url: `${rx.url}/quotes`, events: ['quote.ready'] }));
    assert.equal(ep.status, 201, await ep.clone().text());
    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(FIXTURE)]), 'part.step');
    const design = await (await fetch(`${child.url}/v1/analyze`, { method: 'POST', headers: { ...auth, prefer: 'wait=120', connection: 'close' }, body: form })).json() as { id: string; status: string; parts: Array<{ detected_thickness_mm: number }> };
    assert.equal(design.status, 'ready');
    const materials = (await (await fetch(`${child.url}/v1/materials?limit=500`, { headers: { ...auth, connection: 'close' } })).json() as { data: Array<{ id: string; thickness_mm: number; bendable: boolean }> }).data;
    const t = design.parts[0].detected_thickness_mm;
    const material = materials.filter((m) => m.bendable).sort((a, b) => Math.abs(a.thickness_mm - t) - Math.abs(b.thickness_mm - t))[0];
    const body = JSON.stringify({ items: [{ design_id: design.id, quantity: 5, configuration: { defaults: { material_id: material.id } } }] });
    const quotes: string[] = [];
    for (let i = 0; i < QUOTES; i++) {
      const r = await post('/v1/quotes', body);
      assert.equal(r.status, 201, await r.clone().text());
      const id = ((await r.json()) as { id: string }).id;
      quotes.push(id);
      // well within the minute-long poll: only a wake (its own, or one passed on) gets it there
      await rx.until((all) => all.some((d) => d.path === '/quotes' && d.body.data.id === id), `quote.ready of quote ${i + 1}`, 30_000);
    }
    assert.equal(rx.to('/quotes').length, QUOTES, 'each delivered once');
    assert.equal(await stopChild(child, 'SIGTERM'), 0);
    child = undefined;
  });
});
