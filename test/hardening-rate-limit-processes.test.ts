// The rate limit holds across processes: two `kerf serve` processes on one data dir count in the
// store's shared counters, so requests alternating between them meet 429 at the configured max,
// not at twice it (each process used to count alone). Real binaries on ports.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { childServiceGroup, demoKey, spawnServe } from './helpers/child.ts';
import { freePort } from './helpers/service.ts';

const MAX = 6;

describe('rate limit across two service processes on one store', () => {
  const group = childServiceGroup('kerf-rate-');

  it(`an account meets 429 after ${MAX} requests over both processes, and so does an address`, async () => {
    // a long window: the test must not straddle two
    const env = { KERF_DATA_DIR: group.dir, KERF_RATE_LIMIT: String(MAX), KERF_RATE_LIMIT_WINDOW_MS: '600000' };
    const one = await spawnServe(env, await freePort());
    group.children.push(one);
    const key = demoKey(one)!.key;
    const two = await spawnServe(env, await freePort());
    group.children.push(two);
    const procs = [one, two];

    const statuses: number[] = [];
    for (let i = 0; i < MAX + 2; i++) {
      const r = await fetch(`${procs[i % 2].url}/v1/materials`, { headers: { authorization: `Bearer ${key}` } });
      statuses.push(r.status);
    }
    assert.deepEqual(statuses, [...Array(MAX).fill(200), 429, 429]);

    // random tokens count against the address, in the same shared count (the start-up probes
    // already spent some of it): within MAX requests over both processes the address is refused
    const random: number[] = [];
    for (let i = 0; i < MAX; i++) {
      const r = await fetch(`${procs[i % 2].url}/v1/materials`, { headers: { authorization: `Bearer kerf_live_${randomBytes(16).toString('hex')}` } });
      random.push(r.status);
    }
    assert.equal(random.at(-1), 429, `statuses ${random.join(',')}`);
    for (const p of procs) assert.equal((await fetch(`${p.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer nope' } })).status, 429);
  });
});
