// Fairness under a flood: account A keeps its queue full (uploads at its limit, retried on 429, and
// image renders at distinct widths) while account B uploads one file at a time and waits for it to be
// ready. Reports B's latency (upload -> ready) p50/p99 alone and under A's flood, against the real
// service (worker pool, store on disk). `npm run bench -- --only fairness [--quick]`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { configFromEnv, startService, type Service } from '@kerf/service';
import { freePort } from '../test/helpers/service.ts';

const FIXTURE = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;

interface Latency { samples: number; p50_ms: number; p99_ms: number; max_ms: number }

const pct = (xs: number[], p: number): number => { const s = [...xs].sort((a, b) => a - b); return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]); };

async function upload(base: string, key: string, bytes: Uint8Array, wait: boolean): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)]), 'part.step');
  return fetch(`${base}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...(wait ? { prefer: 'wait=60' } : {}) }, body: form });
}

/** B's uploads one after another, each until ready. */
async function measure(base: string, key: string, bytes: Uint8Array, samples: number): Promise<Latency> {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    let d = (await (await upload(base, key, bytes, true)).json()) as { id: string; status: string };
    while (d.status !== 'ready' && d.status !== 'failed') {
      d = (await (await fetch(`${base}/v1/designs/${d.id}`, { headers: { authorization: `Bearer ${key}`, prefer: 'wait=30' } })).json()) as typeof d;
    }
    if (d.status !== 'ready') throw new Error(`B's design ${d.id} ${d.status}`);
    ms.push(performance.now() - t0);
  }
  return { samples, p50_ms: pct(ms, 50), p99_ms: pct(ms, 99), max_ms: Math.round(Math.max(...ms)) };
}

/** A's flood until `stop`: uploads kept at its limit and renders at ever new widths. */
function flood(base: string, key: string, bytes: Uint8Array, designId: string, stop: AbortSignal): Promise<{ uploads: number; refused: number; renders: number }> {
  const counts = { uploads: 0, refused: 0, renders: 0 };
  let width = 100;
  const uploader = async (): Promise<void> => {
    while (!stop.aborted) {
      const r = await upload(base, key, bytes, false).catch(() => null);
      if (r?.status === 202) counts.uploads++;
      else { counts.refused++; await new Promise((res) => setTimeout(res, 200)); }
      await r?.arrayBuffer().catch(() => null);
    }
  };
  const renderer = async (): Promise<void> => {
    while (!stop.aborted) {
      const r = await fetch(`${base}/v1/designs/${designId}/image?width=${width++}&format=png`, { headers: { authorization: `Bearer ${key}` }, redirect: 'manual', signal: stop }).catch(() => null);
      await r?.arrayBuffer().catch(() => null);
      counts.renders++;
    }
  };
  return Promise.all([...Array.from({ length: 4 }, uploader), ...Array.from({ length: 8 }, renderer)]).then(() => counts);
}

export async function benchFairness(quick: boolean): Promise<object> {
  const samples = quick ? 5 : 15;
  const dir = mkdtempSync(join(tmpdir(), 'kerf-bench-fair-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let svc: Service | null = null;
  try {
    const config = { ...configFromEnv({}), port, host: '127.0.0.1', dataDir: dir, baseUrl: base, rateLimit: false as const, jobPollMs: 50 };
    svc = await startService(config, { logger: pino({ level: 'warn' }) });
    await svc.listen();
    const keys = [];
    for (const name of ['a', 'b']) {
      const acct = await svc.store.accounts.create({ email: `${name}@bench.local`, name });
      keys.push((await svc.store.apiKeys.create(acct.id))!.api_key);
    }
    const [keyA, keyB] = keys;
    const bytes = new Uint8Array(readFileSync(FIXTURE));
    const seed = (await (await upload(base, keyA, bytes, true)).json()) as { id: string };
    await measure(base, keyB, bytes, 2); // warm the engine's threads
    const alone = await measure(base, keyB, bytes, samples);
    const stop = new AbortController();
    const flooding = flood(base, keyA, bytes, seed.id, stop.signal);
    await new Promise((r) => setTimeout(r, 2000));
    const underFlood = await measure(base, keyB, bytes, samples);
    stop.abort();
    const floodCounts = await flooding;
    const out = { engine_threads: config.engineThreads, max_active_jobs_per_account: config.maxActiveJobsPerAccount, b_alone: alone, b_under_flood: underFlood, a_flood: floodCounts };
    console.log(`  B alone:        p50 ${alone.p50_ms} ms  p99 ${alone.p99_ms} ms`);
    console.log(`  B under flood:  p50 ${underFlood.p50_ms} ms  p99 ${underFlood.p99_ms} ms  (A: ${floodCounts.uploads} uploads queued, ${floodCounts.refused} refused 429, ${floodCounts.renders} renders)`);
    return out;
  } finally {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
