// What crashes leave behind: partial blob writes and stored bytes that no put recorded are removed by
// the janitor when the service starts (older than the retention, younger ones kept); a DFM report
// whose production-files job was lost is not left pending forever: reading it enqueues the job again.
// Real service, store on disk, real engine.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@kerf/store';
import { Janitor } from '@kerf/usecases';
import { sourceKey } from '@kerf/usecases/testing';
import { fixtureBytes } from './helpers/fixtures.ts';
import { startTestService } from './helpers/service.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const EMPTY_STEP = "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('e.step','2026-01-01',(''),(''),'','','');\nFILE_SCHEMA(('AUTOMOTIVE_DESIGN'));\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TWO_HOURS_AGO = new Date(Date.now() - 2 * 60 * 60 * 1000);

describe('crash leftovers', () => {
  it('the janitor removes old partial writes, unrecorded blob files and sources without a design at start; keeps recent ones and designs\' sources', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'kerf-janitor-')), 'data');
    try {
      // written two hours ago: an upload whose design was created, and one whose design never was
      const store = await openStore({ dataDir, now: () => TWO_HOURS_AGO });
      await store.blobs.put('designs/des_kept/source.step', Buffer.from('ISO-10303-21;'));
      const owner = await store.accounts.create({ email: 'owner@test.local' });
      await store.designs.create(owner.id, { id: 'des_kept', name: 'k.step', sourceBlobKey: 'designs/des_kept/source.step', sourceSize: 13, sourceSha256: '0'.repeat(64) });
      await store.blobs.put('designs/des_never/source.step', Buffer.from('ISO-10303-21;'));
      await store.close();
      const plant = (rel: string, old: boolean): string => {
        const path = join(dataDir, rel);
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, Buffer.alloc(1024));
        if (old) utimesSync(path, TWO_HOURS_AGO, TWO_HOURS_AGO);
        return path;
      };
      const kept = join(dataDir, 'blobs/designs/des_kept/source.step');
      utimesSync(kept, TWO_HOURS_AGO, TWO_HOURS_AGO);
      const oldPartial = plant('tmp/0123abcd.part', true);
      const newPartial = plant('tmp/4567cdef.part', false);
      const oldUnrecorded = plant('blobs/designs/des_crashed/source.step', true);
      const newUnrecorded = plant('blobs/designs/des_writing/source.step', false);
      const t = await startTestService({ dataDir });
      try {
        const deadline = Date.now() + 10_000;
        while (existsSync(oldUnrecorded) || existsSync(oldPartial)) { assert.ok(Date.now() < deadline, 'leftovers still there'); await sleep(50); }
        assert.ok(existsSync(newPartial), 'a partial write under way is kept');
        assert.ok(existsSync(newUnrecorded), 'a recent file is kept');
        assert.ok(existsSync(kept), 'a recorded blob is kept, however old');
        while (await t.service.store.blobs.exists('designs/des_never/source.step')) { assert.ok(Date.now() < deadline, 'the orphan source is still there'); await sleep(50); }
        assert.ok(await t.service.store.blobs.exists('designs/des_kept/source.step'), 'a design\'s source is kept');
      } finally {
        await t.close();
      }
    } finally {
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
    }
  });

  it('the janitor looks again after its pass at start: a leftover that appears later is removed by a later pass', async () => {
    const t = await startTestService();
    const janitor = new Janitor(t.service.ctx, { intervalMs: 200 });
    const leftover = (name: string): string => {
      const path = join(t.dataDir, 'tmp', name);
      writeFileSync(path, Buffer.alloc(1024));
      utimesSync(path, TWO_HOURS_AGO, TWO_HOURS_AGO);
      return path;
    };
    try {
      const first = leftover('before-start.part');
      janitor.start();
      const deadline = Date.now() + 10_000;
      while (existsSync(first)) { assert.ok(Date.now() < deadline, 'the pass at start did not run'); await sleep(20); }
      const later = leftover('after-start.part');
      while (existsSync(later)) { assert.ok(Date.now() < deadline, 'no pass after the one at start'); await sleep(20); }
    } finally {
      await janitor.stop();
      await t.close();
    }
  });

  it('uploads spooled by a request that never finished are swept from the spool dir, at start and later; fresh ones are kept', async () => {
    const t = await startTestService();
    // the embedded store's tmp/ (swept with its partial writes); with MongoDB a folder of its own
    assert.equal(t.service.ctx.uploadSpoolDir, join(t.dataDir, 'tmp'));
    const spoolDir = mkdtempSync(join(tmpdir(), 'kerf-spool-'));
    const janitor = new Janitor({ ...t.service.ctx, uploadSpoolDir: spoolDir }, { intervalMs: 200 });
    const spool = (hex: string, old: boolean): string => {
      const path = join(spoolDir, `upload-${hex.repeat(24 / hex.length)}.part`);
      writeFileSync(path, Buffer.alloc(1024));
      if (old) utimesSync(path, TWO_HOURS_AGO, TWO_HOURS_AGO);
      return path;
    };
    try {
      const stale = spool('a1', true);
      const fresh = spool('b2', false);
      const notOurs = join(spoolDir, 'someone-elses.part');
      writeFileSync(notOurs, 'x');
      utimesSync(notOurs, TWO_HOURS_AGO, TWO_HOURS_AGO);
      janitor.start();
      const deadline = Date.now() + 10_000;
      while (existsSync(stale)) { assert.ok(Date.now() < deadline, 'the stale spool is still there after the pass at start'); await sleep(20); }
      const later = spool('c3', true);
      while (existsSync(later)) { assert.ok(Date.now() < deadline, 'no later pass removed the spool left after start'); await sleep(20); }
      assert.ok(existsSync(fresh), 'an upload under way is kept');
      assert.ok(existsSync(notOurs), 'only spooled uploads are removed from the folder');
    } finally {
      await janitor.stop();
      await t.close();
      rmSync(spoolDir, { recursive: true, force: true });
    }
  });

  it('the upload of a design that failed is not kept', async () => {
    const t = await startTestService();
    try {
      const form = new FormData();
      form.append('file', new Blob([EMPTY_STEP]), 'empty.step');
      const d = (await (await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${t.keyA}`, prefer: 'wait=60' }, body: form })).json()) as { id: string; status: string; error: { code: string } | null };
      assert.equal(d.status, 'failed');
      assert.equal(d.error?.code, 'empty_model');
      assert.equal(await t.service.store.blobs.exists(sourceKey(d.id)), false);
    } finally {
      await t.close();
    }
  });

  it('a DFM report whose production-files job was lost gets it again when read', async () => {
    const t = await startTestService({}, { jobs: false });
    try {
      const auth = { authorization: `Bearer ${t.keyA}` };
      const form = new FormData();
      form.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'l.step');
      const design = (await (await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: auth, body: form })).json()) as { id: string };
      // analyse it with a worker of the service, then stop working again
      t.service.worker.start();
      while ((await t.service.store.designs.get(t.accountA, design.id))?.status !== 'ready') await sleep(50);
      await t.service.worker.stop();
      // production files are made for a configured material: the bendable one nearest the part's thickness
      const ready = (await (await fetch(`${t.url}/v1/designs/${design.id}`, { headers: auth })).json()) as { parts: Array<{ id: string; thickness_mm?: number }> };
      const materials: Array<{ id: string; thickness_mm: number; bendable: boolean; available: boolean }> = [];
      for (let url = `${t.url}/v1/materials?limit=100`; url;) {
        const page = (await (await fetch(url, { headers: auth })).json()) as { data: typeof materials; has_more: boolean; next_cursor?: string | null };
        materials.push(...page.data);
        url = page.has_more && page.next_cursor ? `${t.url}/v1/materials?limit=100&cursor=${encodeURIComponent(page.next_cursor)}` : '';
      }
      const material = materials.filter((m) => m.bendable && m.available).sort((x, y) => Math.abs(x.thickness_mm - 2) - Math.abs(y.thickness_mm - 2))[0];
      const configuration = { parts: ready.parts.map((p) => ({ part_id: p.id, material_id: material.id })) };
      const dfm = (await (await fetch(`${t.url}/v1/dfm`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ design_id: design.id, configuration }) })).json()) as { id: string; production_files: { status: string } };
      assert.equal(dfm.production_files.status, 'pending');
      // the job is lost: taken by a worker that died and marked failed without telling the report
      const [job] = await t.service.store.jobs.listForResource(dfm.id);
      const claimed = await t.service.store.jobs.claim('dead-worker', 60_000, { kinds: [job.kind] });
      assert.equal(claimed?.id, job.id);
      await t.service.store.jobs.fail(job.id, 'dead-worker', { code: 'lost', message: 'lost' }, { retry: false });
      t.service.worker.start();
      const deadline = Date.now() + 60_000;
      let status = 'pending';
      while (status === 'pending') {
        assert.ok(Date.now() < deadline, 'production files still pending');
        status = ((await (await fetch(`${t.url}/v1/dfm/${dfm.id}`, { headers: auth })).json()) as { production_files: { status: string } }).production_files.status;
        await sleep(100);
      }
      assert.equal(status, 'ready');
    } finally {
      await t.close();
    }
  });
});
