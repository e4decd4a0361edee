// POST /v1/quotes for a ready design at 32 connections (issue 18.3), measured in one run:
// before = quote cache off, 1 process; after = cache on with 1 and 2 processes side by side.
// The service runs as `kerf serve` child processes (KERF_WORKERS), so autocannon's own work is not
// on the service's event loop. Each 1-process setup also times the same account uploading the same
// bytes again (issue 18.4; before: analysed afresh, after: the earlier analysis reused).
// p50/p99 in ms, requests/s. BENCH_SERVE_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' profiles the service.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { freePort } from '../test/helpers/service.ts';

interface AutocannonOptions { url: string; connections: number; duration: number; method?: string; headers?: Record<string, string>; body?: string }
interface AutocannonResult { latency: { p50: number; p99: number }; requests: { average: number; total: number }; non2xx: number; errors: number }
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;

const ROOT = new URL('../', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/kerf.mjs');
const FIXTURE = join(ROOT, 'fixtures/sheet/l_t2_r2.step');
const CONNECTIONS = 32;

interface Setup { label: string; processes: number; cache: boolean }
const SETUPS: Setup[] = [
  { label: 'before: no cache, 1 process', processes: 1, cache: false },
  { label: 'after: cache, 1 process', processes: 1, cache: true },
  { label: 'after: cache, 2 processes', processes: 2, cache: true },
];

async function waitUp(url: string, proc: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`kerf serve exited ${proc.exitCode}`);
    try { if ((await fetch(`${url}/v1/openapi.json`)).ok) return; } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error('kerf serve did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function serve(setup: Setup, dir: string): Promise<{ url: string; key: string; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, [...(process.env.BENCH_SERVE_NODE_ARGS?.split(' ').filter(Boolean) ?? []), BIN, 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', KERF_BASE_URL: url, KERF_DATA_DIR: dir, LOG_LEVEL: 'warn', KERF_RATE_LIMIT: '0',
      KERF_WORKERS: String(setup.processes), KERF_QUOTE_CACHE: setup.cache ? '1' : '0', KERF_ENGINE_THREADS: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  await waitUp(url, proc);
  const key = (JSON.parse(readFileSync(join(dir, 'demo-api-key.json'), 'utf8')) as { api_key: string }).api_key;
  return { url, key, async stop() { proc.kill('SIGTERM'); await exited; } };
}

async function upload(url: string, auth: Record<string, string>): Promise<{ id: string; status: string; parts: Array<{ detected_thickness_mm: number }> }> {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(FIXTURE)]), 'bench.step');
  const design = (await (await fetch(`${url}/v1/analyze`, { method: 'POST', headers: { ...auth, prefer: 'wait=120' }, body: form })).json()) as { id: string; status: string; parts: Array<{ detected_thickness_mm: number }> };
  if (design.status !== 'ready') throw new Error(`bench design is ${design.status}`);
  return design;
}

/** Issue 18.4: the same account uploading the same bytes again, upload to ready (median of a few), ms. */
async function reuploadMs(url: string, auth: Record<string, string>, runs: number): Promise<number> {
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) { const t0 = performance.now(); await upload(url, auth); ts.push(performance.now() - t0); }
  return Math.round(ts.sort((a, b) => a - b)[Math.floor(ts.length / 2)] * 10) / 10;
}

async function quoteBody(url: string, auth: Record<string, string>): Promise<string> {
  const design = await upload(url, auth);
  const materials = (await (await fetch(`${url}/v1/materials?limit=500`, { headers: auth })).json()) as { data: Array<{ id: string; thickness_mm: number; bendable: boolean }> };
  const t = design.parts[0].detected_thickness_mm;
  const material = materials.data.filter((m) => m.bendable).sort((a, b) => Math.abs(a.thickness_mm - t) - Math.abs(b.thickness_mm - t))[0];
  return JSON.stringify({ items: [{ design_id: design.id, quantity: 10, quantity_options: [1, 10, 100], configuration: { defaults: { material_id: material.id } } }] });
}

export async function benchQuotes(quick: boolean): Promise<object> {
  const duration = quick ? 5 : 10;
  const rows: Array<Record<string, unknown>> = [];
  for (const setup of SETUPS) {
    const dir = mkdtempSync(join(tmpdir(), 'kerf-bench-quotes-'));
    const svc = await serve(setup, dir);
    try {
      const auth = { authorization: `Bearer ${svc.key}` };
      const body = await quoteBody(svc.url, auth);
      const headers = { ...auth, 'content-type': 'application/json' };
      const check = await fetch(`${svc.url}/v1/quotes`, { method: 'POST', headers, body });
      if (check.status !== 201) throw new Error(`bench quote: ${check.status} ${await check.text()}`);
      // a short warm-up so both setups are measured with compiled code, not the first requests' JIT
      await autocannon({ url: `${svc.url}/v1/quotes`, method: 'POST', connections: CONNECTIONS, duration: 2, headers, body });
      const reupload = setup.processes === 1 ? await reuploadMs(svc.url, auth, 5) : null;
      const load = loadavg()[0];
      const r = await autocannon({ url: `${svc.url}/v1/quotes`, method: 'POST', connections: CONNECTIONS, duration, headers, body });
      const row = { setup: setup.label, processes: setup.processes, cache: setup.cache, p50_ms: r.latency.p50, p99_ms: r.latency.p99, requests_per_s: Math.round(r.requests.average), non_2xx: r.non2xx, errors: r.errors, same_bytes_again_ready_ms: reupload, load_average_1m_before: Number(load.toFixed(2)) };
      rows.push(row);
      console.log(`  ${setup.label.padEnd(30)} p50 ${String(row.p50_ms).padStart(5)} ms  p99 ${String(row.p99_ms).padStart(5)} ms  ${String(row.requests_per_s).padStart(5)} req/s  non-2xx ${row.non_2xx}${reupload === null ? '' : `  same bytes again: ready in ${reupload} ms`}  (load ${row.load_average_1m_before})`);
    } finally {
      await svc.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { connections: CONNECTIONS, duration_s: duration, target_p99_ms: 25, target_same_bytes_again_ms: 20, rows };
}
