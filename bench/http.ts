// HTTP bench: p50/p99 latency and requests/s of GET /v1/designs/{id} and POST /v1/quotes for a
// ready design at 32 concurrent connections (autocannon), against the real service on a temp store.
// `node --import tsx bench/http.ts [--duration 10] [--connections 32]`; figures on stdout as JSON.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { argv } from 'node:process';
import { createRequire } from 'node:module';
import pino from 'pino';
import { configFromEnv, startService } from '@kerf/service';
import { freePort } from '../test/helpers/service.ts';

// autocannon ships no types: the little of it used here, typed.
interface AutocannonOptions { url: string; connections: number; duration: number; method?: string; headers?: Record<string, string>; body?: string }
interface AutocannonResult { latency: { p50: number; p99: number }; requests: { average: number; total: number }; non2xx: number; errors: number }
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;

const ROOT = new URL('../', import.meta.url).pathname;
const FIXTURE = join(ROOT, 'fixtures/sheet/l_t2_r2.step');

function arg(name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}

interface Figures { p50_ms: number; p99_ms: number; requests_per_s: number; non_2xx: number; errors: number; requests: number }

async function run(opts: AutocannonOptions): Promise<Figures> {
  const r = await autocannon(opts);
  return { p50_ms: r.latency.p50, p99_ms: r.latency.p99, requests_per_s: Math.round(r.requests.average), non_2xx: r.non2xx, errors: r.errors, requests: r.requests.total };
}

async function main(): Promise<void> {
  const duration = arg('duration', 10);
  const connections = arg('connections', 32);
  const dir = mkdtempSync(join(tmpdir(), 'kerf-bench-http-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const svc = await startService({ ...configFromEnv({}), port, host: '127.0.0.1', dataDir: dir, baseUrl: base, rateLimit: false }, { logger: pino({ level: 'warn' }) });
  try {
    await svc.listen();
    const acct = await svc.store.accounts.create({ email: 'bench@kerf.local' });
    const key = (await svc.store.apiKeys.create(acct.id))!.api_key;
    const auth = { authorization: `Bearer ${key}` };
    const form = new FormData();
    form.append('file', new Blob([readFileSync(FIXTURE)]), 'bench.step');
    const design = (await (await fetch(`${base}/v1/analyze`, { method: 'POST', headers: { ...auth, prefer: 'wait=60' }, body: form })).json()) as { id: string; status: string; parts: Array<{ id: string; detected_thickness_mm: number }> };
    if (design.status !== 'ready') throw new Error(`bench design is ${design.status}`);
    const materials = (await (await fetch(`${base}/v1/materials?limit=500`, { headers: auth })).json()) as { data: Array<{ id: string; thickness_mm: number; bendable: boolean }> };
    const t = design.parts[0].detected_thickness_mm;
    const material = materials.data.filter((m) => m.bendable).sort((a, b) => Math.abs(a.thickness_mm - t) - Math.abs(b.thickness_mm - t))[0];
    const quoteBody = JSON.stringify({ items: [{ design_id: design.id, quantity: 10, quantity_options: [1, 10, 100], configuration: { defaults: { material_id: material.id } } }] });
    const check = await fetch(`${base}/v1/quotes`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: quoteBody });
    if (check.status !== 201) throw new Error(`bench quote: ${check.status} ${await check.text()}`);

    // the machine is shared: the load around the runs says how much of it the bench had
    const loadBefore = loadavg().map((x) => Number(x.toFixed(2)));
    const get = await run({ url: `${base}/v1/designs/${design.id}`, connections, duration, headers: auth });
    const post = await run({ url: `${base}/v1/quotes`, method: 'POST', connections, duration, headers: { ...auth, 'content-type': 'application/json' }, body: quoteBody });
    const out = {
      environment: { node: process.version, cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', store: svc.store.kind, date: new Date().toISOString(), connections, duration_s: duration, load_average_before: loadBefore, load_average_after: loadavg().map((x) => Number(x.toFixed(2))) },
      get_design: get,
      post_quote: post,
    };
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
