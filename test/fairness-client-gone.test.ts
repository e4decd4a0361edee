// Images and models made while a client waits are dropped once it has gone, on MCP and on the web
// site as on REST (test/fairness-engine-queue.test.ts): previews whose requests were abandoned do not
// spend engine time. Real service, real engine pool (one thread), store on disk.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { engineIdle, engineStats } from './helpers/engine-stats.ts';
import { fixtureBytes } from './helpers/fixtures.ts';
import { until } from './helpers/wait.ts';
import { webSession } from './helpers/web-session.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Abandoned requests; one of them is running when the clients go, one more may start before they are seen to go. */
const ABANDONED = 6;
const MAY_RUN = 2;

/** Sends the requests, lets the clients go once the engine runs one of them, and counts the engine runs they cost. */
async function abandon(t: TestService, send: (signal: AbortSignal, i: number) => Promise<unknown>): Promise<number> {
  const before = await engineIdle(t);
  const gone = new AbortController();
  const requests = Array.from({ length: ABANDONED }, (_, i) => send(gone.signal, i).catch(() => null));
  const deadline = Date.now() + 60_000;
  while (engineStats(t).running === 0) { assert.ok(Date.now() < deadline, 'no render started'); await sleep(10); }
  // at once: a request that reaches its render after its client has gone is dropped all the same
  gone.abort();
  await Promise.all(requests);
  const s = await engineIdle(t);
  return s.completed + s.failed - before.completed - before.failed;
}

describe('fairness: abandoned previews on MCP and the web site', () => {
  let t: TestService;
  let designId: string;
  before(async () => {
    t = await startTestService({ engine: 'pool', engineThreads: 1 });
    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'l.step');
    const d = (await (await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${t.keyA}`, prefer: 'wait=60' }, body: form })).json()) as { id: string; status: string };
    assert.equal(d.status, 'ready');
    designId = d.id;
  });
  after(async () => { await t.close(); });

  it('MCP preview_design calls whose clients went away are dropped, not run', async () => {
    const ran = await abandon(t, (signal, i) => fetch(`${t.url}/mcp`, {
      method: 'POST', signal,
      headers: { authorization: `Bearer ${t.keyA}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'preview_design', arguments: { design_id: designId, views: ['iso'], width: 1000 + i } } }),
    }).then((r) => r.text()));
    assert.ok(ran <= MAY_RUN, `${ran} of ${ABANDONED} abandoned MCP previews ran in the engine`);
  });

  it('web design pages whose visitors went away drop the models and images they were waiting for', async () => {
    const { cookie, csrf } = await webSession(t);
    // designs of the person's own (the same bytes: analysed once, the rest reuse it), none drawn yet
    const ids: string[] = [];
    for (let i = 0; i < ABANDONED; i++) {
      const form = new FormData();
      form.append('_csrf', csrf);
      form.append('file', new Blob([fixtureBytes(L_BRACKET)]), `web-${i}.step`);
      const r = await fetch(`${t.url}/designs`, { method: 'POST', headers: { cookie }, body: form, redirect: 'manual' });
      assert.equal(r.status, 303);
      const id = decodeURIComponent(r.headers.get('location')!.split('/').pop()!);
      ids.push(id);
      // ready once its analysis job is done (none for a reuse); not by opening its page, which would draw it
      await until(`design ${id} analysed`, async () => (await t.service.store.jobs.listForResource(id)).every((j) => j.status === 'done'), 60_000);
    }
    const ran = await abandon(t, (signal, i) => fetch(`${t.url}/designs/${ids[i]}`, { headers: { cookie }, signal }).then((r) => r.text()));
    assert.ok(ran <= MAY_RUN, `${ran} engine runs for ${ABANDONED} abandoned design pages (each asks for 3 files)`);
  });
});
