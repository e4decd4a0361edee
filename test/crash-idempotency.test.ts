// Idempotency-Key across crashes: a request whose process is killed (SIGKILL) while it holds its key
// leaves the key free again within the lease, and its retry answers with the resource the first run
// created instead of creating a second one. An outcome a retry may change (422 design_not_ready,
// retryable) is not stored under the key. Real `kerf serve` processes and store on disk.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureBytes } from './helpers/fixtures.ts';
import { childServiceGroup, demoKey, spawnServe } from './helpers/child.ts';
import { freePort, startTestService } from './helpers/service.ts';

const BIG = new URL('../../shared/corpus/real/ender3-sheetmetal-enclosure-bottom.step', import.meta.url).pathname;
const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function analyze(url: string, key: string, idem: string, path: string, signal?: AbortSignal): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([fixtureBytes(path)]), 'enclosure.step');
  return fetch(`${url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'idempotency-key': idem, prefer: 'wait=60' }, body: form, signal });
}

describe('crash: Idempotency-Key after kill -9', () => {
  const group = childServiceGroup('kerf-crash-idem-');
  const { dir, children } = group;

  it('the retry of a request killed after it created its design answers with that design; nothing is created twice', async () => {
    const env = { KERF_DATA_DIR: dir, KERF_IDEMPOTENCY_LEASE_MS: '1500', KERF_JOB_POLL_MS: '100' };
    const first = await spawnServe(env, await freePort());
    children.push(first);
    const demo = demoKey(first);
    assert.ok(demo);
    const store = await group.store();

    // The request holds its key while it waits (Prefer: wait) for the slow analysis of its design.
    const gone = new AbortController();
    const pending = analyze(first.url, demo.key, 'crash-key-1', BIG, gone.signal).catch(() => null);
    const deadline = Date.now() + 30_000;
    while ((await store.designs.list(demo.account)).items.length === 0) {
      assert.ok(Date.now() < deadline, 'the design was never created');
      await sleep(10);
    }
    first.proc.kill('SIGKILL');
    await first.stopped;
    gone.abort();
    await pending;
    const [made] = (await store.designs.list(demo.account)).items;

    const second = await spawnServe(env, await freePort());
    children.push(second);
    let r: Response;
    const until = Date.now() + 20_000;
    for (;;) {
      r = await analyze(second.url, demo.key, 'crash-key-1', BIG);
      if (r.status !== 409) break;
      const body = (await r.json()) as { error: { code: string } };
      assert.equal(body.error.code, 'idempotency_key_in_use');
      assert.ok(Date.now() < until, 'the key of the killed request is still held');
      await sleep(300);
    }
    assert.ok(r.status === 200 || r.status === 202, `status ${r.status}: ${await r.clone().text()}`);
    assert.equal(((await r.json()) as { id: string }).id, made.id, 'the design the first run created');
    assert.equal((await store.designs.list(demo.account)).items.length, 1, 'no second design');
    const again = await analyze(second.url, demo.key, 'crash-key-1', BIG);
    assert.equal(((await again.json()) as { id: string }).id, made.id);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal((await store.designs.list(demo.account)).items.length, 1, 'still one design');
  });
});

describe('idempotency: retryable outcomes are not stored', () => {
  it('a 422 design_not_ready under a key is not replayed once the design is ready', async () => {
    const t = await startTestService({}, { jobs: false });
    try {
      const auth = { authorization: `Bearer ${t.keyA}` };
      const form = new FormData();
      form.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'l.step');
      const design = (await (await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: auth, body: form })).json()) as { id: string };
      const dfm = () => fetch(`${t.url}/v1/dfm`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'not-ready-yet' }, body: JSON.stringify({ design_id: design.id }) });
      const early = await dfm();
      assert.equal(early.status, 422);
      assert.equal(((await early.json()) as { error: { code: string; retryable: boolean } }).error.code, 'design_not_ready');
      t.service.worker.start();
      const deadline = Date.now() + 60_000;
      while ((await t.service.store.designs.get(t.accountA, design.id))?.status !== 'ready') {
        assert.ok(Date.now() < deadline, 'design never ready');
        await sleep(50);
      }
      const later = await dfm();
      assert.equal(later.status, 201, await later.clone().text());
      assert.equal(later.headers.get('idempotent-replayed'), null);
    } finally {
      await t.close();
    }
  });
});
