// Sending a failed webhook delivery again (issue #33.13): after its six attempts a delivery is
// `failed`; the account redelivers it over REST (202, a new delivery of the same event with attempts
// of its own), once however often it asks; a delivery still being retried, or one that succeeded,
// answers 409 delivery_not_failed; another account gets 404. The real service, a real receiver, and
// a service clock the test moves forward through the retry schedule.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { emitEvent, RETRY_DELAYS_MS } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor } from './helpers/client.ts';
import { Receiver } from './helpers/receiver.ts';
import { spawn } from 'node:child_process';

/** `kerf ...` as the operator runs it, on the service's data directory. */
function kerf(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const { MONGODB_URL: _m, STRIPE_SECRET_KEY: _s, ...env } = process.env;
    const child = spawn(process.execPath, [new URL('../bin/kerf.mjs', import.meta.url).pathname, ...args], { env: { ...env, KERF_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('webhooks: redelivering a failed delivery', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  const rx = new Receiver();
  let offset = 0;
  const clock = (): Date => new Date(Date.now() + offset);

  before(async () => {
    await rx.start();
    t = await startTestService({ webhookAllowHttpLoopback: true }, { now: clock, storeNow: clock });
    ({ a, b } = await clientsFor(t));
  });
  after(async () => { await t?.close(); await rx.close(); });

  async function deliveriesOf(id: string): Promise<any[]> {
    const r = await a.get(`/v1/webhook-endpoints/${id}/deliveries?limit=100`);
    assert.equal(r.status, 200, r.text);
    return r.body.data;
  }

  /** Waits until no job of `resourceId` is queued to run now or running. */
  async function idle(resourceId: string, status: 'queued' | 'done'): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const jobs = await t.service.store.jobs.listForResource(resourceId);
      if (jobs.length === 1 && jobs[0].status === status) return;
      assert.ok(Date.now() < deadline, `job of ${resourceId}: ${JSON.stringify(jobs.map((j) => [j.status, j.attempts]))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a delivery that failed six times is sent again on request, once; others are refused', async () => {
    const created = await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/down`, events: ['order.status_changed'] } });
    assert.equal(created.status, 201, created.text);
    const ep = created.body;
    let up = false;
    rx.answer = (_d, res) => { res.writeHead(up ? 204 : 500).end(); };
    const eventId = await emitEvent(t.service.ctx, t.accountA, 'order.status_changed', { id: 'ord_redeliver', object: 'order', status: 'shipped' });
    for (let attempt = 1; attempt <= 6; attempt++) {
      await rx.until((all) => all.filter((d) => d.path === '/down').length === attempt, `attempt ${attempt}`);
      await idle(`${eventId}:${ep.id}`, attempt === 6 ? 'done' : 'queued');
      if (attempt === 3) {
        // still being retried: not failed for good
        const third = (await deliveriesOf(ep.id)).find((x) => x.attempt === 3)!;
        const early = await a.post(`/v1/webhook-endpoints/${ep.id}/deliveries/${third.id}/redeliver`, { json: {} });
        assert.equal(early.status, 409, early.text);
        assert.equal(early.body.error.code, 'delivery_not_failed');
      }
      if (attempt < 6) offset += RETRY_DELAYS_MS[attempt - 1];
    }
    const log = await deliveriesOf(ep.id);
    const last = log.find((x) => x.attempt === 6)!;
    assert.deepEqual([last.status, last.next_attempt_at], ['failed', null]);
    const first = log.find((x) => x.attempt === 1)!;
    const notLast = await a.post(`/v1/webhook-endpoints/${ep.id}/deliveries/${first.id}/redeliver`, { json: {} });
    assert.equal(notLast.status, 409, 'an earlier attempt of the delivery is not its end');

    // another account cannot see or redeliver it
    assert.equal((await b.post(`/v1/webhook-endpoints/${ep.id}/deliveries/${last.id}/redeliver`, { json: {} })).status, 404);

    up = true;
    const again = await a.post(`/v1/webhook-endpoints/${ep.id}/deliveries/${last.id}/redeliver`, { json: {} });
    assert.equal(again.status, 202, again.text);
    assert.equal(again.body.object, 'webhook_delivery');
    assert.deepEqual([again.body.event_id, again.body.attempt, again.body.status], [eventId, 1, 'pending']);
    assert.notEqual(again.body.id, last.id);
    await rx.until((all) => all.filter((d) => d.path === '/down').length === 7, 'the redelivery');
    const sent = rx.to('/down')[6];
    assert.equal(sent.body.id, eventId, 'the same event');
    assert.equal(sent.raw.toString(), rx.to('/down')[0].raw.toString(), 'the same bytes');
    await idle(`${eventId}:${ep.id}:r`, 'done');
    const after = await deliveriesOf(ep.id);
    const redelivered = after.find((x) => x.id === again.body.id)!;
    assert.deepEqual([redelivered.status, redelivered.response_status], ['succeeded', 204]);

    // asking again answers the same delivery and sends nothing more
    const twice = await a.post(`/v1/webhook-endpoints/${ep.id}/deliveries/${last.id}/redeliver`, { json: {} });
    assert.equal(twice.status, 202);
    assert.equal(twice.body.id, again.body.id);
    // a delivery that succeeded is not sent again
    const done = await a.post(`/v1/webhook-endpoints/${ep.id}/deliveries/${redelivered.id}/redeliver`, { json: {} });
    assert.equal(done.status, 409);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.to('/down').length, 7, 'no further send');
    // unknown delivery
    assert.equal((await a.post(`/v1/webhook-endpoints/${ep.id}/deliveries/whd_none/redeliver`, { json: {} })).status, 404);
    await a.request('DELETE', `/v1/webhook-endpoints/${ep.id}`);
  });

  it('the operator redelivers every failed delivery of an endpoint since a time (kerf admin webhook redeliver), each once', async () => {
    const created = await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/outage`, events: ['order.status_changed'] } });
    const ep = created.body;
    let up = false;
    rx.answer = (_d, res) => { res.writeHead(up ? 204 : 500).end(); };
    const failAll = async (orderId: string): Promise<string> => {
      const before = rx.to('/outage').length;
      const eventId = await emitEvent(t.service.ctx, t.accountA, 'order.status_changed', { id: orderId, object: 'order', status: 'shipped' });
      for (let attempt = 1; attempt <= 6; attempt++) {
        await rx.until((all) => all.filter((d) => d.path === '/outage').length === before + attempt, `${orderId} attempt ${attempt}`);
        await idle(`${eventId}:${ep.id}`, attempt === 6 ? 'done' : 'queued');
        if (attempt < 6) offset += RETRY_DELAYS_MS[attempt - 1];
      }
      return eventId;
    };
    const older = await failAll('ord_older');
    offset += 3_600_000;
    const since = clock().toISOString();
    const newer1 = await failAll('ord_newer1');
    const newer2 = await failAll('ord_newer2');
    up = true;
    const bad = await kerf(['admin', 'webhook', 'redeliver', ep.id, '--since', 'yesterday-ish'], t.dataDir);
    assert.equal(bad.code, 2, bad.stderr);
    assert.equal(JSON.parse(bad.stderr).error.code, 'parameter_invalid');
    const base = rx.to('/outage').length;
    const run = await kerf(['admin', 'webhook', 'redeliver', ep.id, '--since', since], t.dataDir);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { data: Array<{ event_id: string; attempt: number; status: string }> };
    assert.deepEqual(out.data.map((d) => d.event_id).sort(), [newer1, newer2].sort(), 'the failed deliveries since the time, not the older one');
    assert.ok(out.data.every((d) => d.attempt === 1 && d.status === 'pending'));
    await rx.until((all) => all.filter((d) => d.path === '/outage').length === base + 2, 'both sent again');
    assert.deepEqual(rx.to('/outage').slice(base).map((d) => d.body.id).sort(), [newer1, newer2].sort());
    assert.ok(!rx.to('/outage').slice(base).some((d) => d.body.id === older));
    const rerun = await kerf(['admin', 'webhook', 'redeliver', ep.id, '--since', since], t.dataDir);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.deepEqual(JSON.parse(rerun.stdout).data, [], 'each failed delivery is sent again once');
    const unknown = await kerf(['admin', 'webhook', 'redeliver', 'whe_none', '--since', since], t.dataDir);
    assert.equal(unknown.code, 1);
    assert.equal(JSON.parse(unknown.stderr).error.code, 'resource_missing');
    await a.request('DELETE', `/v1/webhook-endpoints/${ep.id}`);
  });

  it('an endpoint failing every delivery for three days is disabled with a notice; one that recovers in time is not', async () => {
    const dead = (await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/dead`, events: ['order.status_changed'] } })).body;
    const alive = (await a.post('/v1/webhook-endpoints', { json: { url: `${rx.url}/alive`, events: ['order.status_changed'] } })).body;
    rx.answer = (d, res) => { res.writeHead(d.path === '/alive' ? 204 : 500).end(); };
    const failAll = async (orderId: string): Promise<void> => {
      const before = rx.to('/dead').length;
      const eventId = await emitEvent(t.service.ctx, t.accountA, 'order.status_changed', { id: orderId, object: 'order', status: 'shipped' });
      for (let attempt = 1; attempt <= 6; attempt++) {
        await rx.until((all) => all.filter((d) => d.path === '/dead').length === before + attempt, `${orderId} attempt ${attempt}`);
        await idle(`${eventId}:${dead.id}`, attempt === 6 ? 'done' : 'queued');
        if (attempt < 6) offset += RETRY_DELAYS_MS[attempt - 1];
      }
    };
    await failAll('ord_dead1');
    assert.equal((await a.get(`/v1/webhook-endpoints/${dead.id}`)).status, 200, 'a day of failures: still active');
    offset += 3 * 24 * 3_600_000;
    await failAll('ord_dead2');
    const gone = await a.get(`/v1/webhook-endpoints/${dead.id}`);
    assert.equal(gone.status, 404, 'disabled after three days of failures');
    assert.equal((await a.get(`/v1/webhook-endpoints/${alive.id}`)).status, 200, 'the endpoint that answers stays');
    const notices = await t.service.store.documents<{ type: string; endpoint_id: string; message: string }>('notices').list(t.accountA, { limit: 10 });
    const notice = notices.items.find((n) => n.data.endpoint_id === dead.id);
    assert.ok(notice, 'a notice for the account');
    assert.equal(notice.data.type, 'webhook_endpoint.disabled');
    assert.match(notice.data.message, /has failed for 3 days/);
    // no more deliveries to it
    const sent = rx.to('/dead').length;
    await emitEvent(t.service.ctx, t.accountA, 'order.status_changed', { id: 'ord_after', object: 'order', status: 'shipped' });
    await rx.until((all) => all.some((d) => d.path === '/alive' && d.body.data.id === 'ord_after'), 'the live endpoint gets it');
    assert.equal(rx.to('/dead').length, sent);
  });
});
