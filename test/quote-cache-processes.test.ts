// `kerf serve` with KERF_WORKERS=2 (issue 18.3): two processes answer on one port from one store,
// a quote's DFM report made by one is the one the other names, and SIGTERM stops both cleanly.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './helpers/service.ts';
import { demoKey, spawnServe, stopChild, type ChildService } from './helpers/child.ts';
import { fixtureBytes } from './helpers/fixtures.ts';

const FIXTURE = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
/** Enough requests that the primary's round-robin hands some to each process. */
const QUOTES = 8;

describe('kerf serve over two processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-workers-'));
  let child: ChildService | undefined;
  after(async () => {
    if (child) await stopChild(child, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('two processes listen on one port and one store, quotes share one DFM report, SIGTERM stops both', async () => {
    child = await spawnServe({ KERF_DATA_DIR: dir, KERF_WORKERS: '2', KERF_ENGINE_THREADS: '1', KERF_RATE_LIMIT: '0' }, await freePort());
    // the second process starts once the first listens (the first alone runs the migrations)
    const listening = (): Set<unknown> => new Set(child!.lines.filter((l) => l.msg === 'kerf listening').map((l) => l.pid));
    const deadline = Date.now() + 60_000;
    while (listening().size < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(listening().size, 2, 'two processes listening');
    const demo = demoKey(child);
    assert.ok(demo, 'one demo account');
    const auth = { authorization: `Bearer ${demo.key}` };
    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(FIXTURE)]), 'part.step');
    const design = await (await fetch(`${child.url}/v1/analyze`, { method: 'POST', headers: { ...auth, prefer: 'wait=120' }, body: form })).json() as any;
    assert.equal(design.status, 'ready');
    const materials = (await (await fetch(`${child.url}/v1/materials?limit=500`, { headers: auth })).json() as any).data as Array<{ id: string; thickness_mm: number; bendable: boolean }>;
    const t = design.parts[0].detected_thickness_mm;
    const material = materials.filter((m) => m.bendable).sort((a, b) => Math.abs(a.thickness_mm - t) - Math.abs(b.thickness_mm - t))[0];
    const body = JSON.stringify({ items: [{ design_id: design.id, quantity: 5, configuration: { defaults: { material_id: material.id } } }] });
    const dfmIds = new Set<string>();
    for (let i = 0; i < QUOTES; i++) {
      const r: Response = await fetch(`${child.url}/v1/quotes`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', connection: 'close' }, body });
      assert.equal(r.status, 201, await r.clone().text());
      dfmIds.add(((await r.json()) as any).items[0].dfm.id);
    }
    assert.equal(dfmIds.size, 1, 'every quote names the one stored report');
    assert.equal(await stopChild(child, 'SIGTERM'), 0);
    child = undefined;
  });
});
