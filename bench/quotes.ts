// POST /v1/quotes for a ready design at 32 connections (issue 18.3), measured in one run: the
// quote cache off, then on; the store committing each write on its own (before), then in groups
// (after); 1 and 2 processes side by side.
// The service runs as `kerf serve` child processes (KERF_WORKERS), so autocannon's own work is not
// on the service's event loop. Each 1-process setup also times the same account uploading the same
// bytes again (issue 18.4; before: analysed afresh, after: the earlier analysis reused).
// p50/p99 in ms, requests/s, and the service's CPU ms per quote (all its processes; a busy machine
// moves it far less than the latencies). BENCH_SERVE_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR'
// profiles the service; BENCH_QUOTES_SETUPS=2,3 runs only those setups (1-based); KERF_BENCH_BEFORE_ROOT
// also measures another checkout's group-commit setups in the same run (withBefore).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

interface Setup { label: string; processes: number; cache: boolean; groupCommit: boolean; root?: string }
const SETUPS: Setup[] = [
  { label: 'no cache, commit each write, 1 proc', processes: 1, cache: false, groupCommit: false },
  { label: 'cache, commit each write, 1 proc', processes: 1, cache: true, groupCommit: false },
  { label: 'cache, commit each write, 2 procs', processes: 2, cache: true, groupCommit: false },
  { label: 'cache, group commit, 1 proc', processes: 1, cache: true, groupCommit: true },
  { label: 'cache, group commit, 2 procs', processes: 2, cache: true, groupCommit: true },
];
/**
 * KERF_BENCH_BEFORE_ROOT=<checkout>: another checkout (a built `git worktree` of an earlier commit)
 * served the same way, its group-commit setups measured in the same run right before this one's.
 */
const BEFORE_ROOT = process.env.KERF_BENCH_BEFORE_ROOT;
function withBefore(setups: Setup[]): Setup[] {
  if (!BEFORE_ROOT) return setups;
  return setups.flatMap((s) => s.cache && s.groupCommit ? [{ ...s, label: `before: ${s.label}`, root: BEFORE_ROOT }, s] : [s]);
}

/**
 * CPU time (user + system, ms) of a process and all its descendants, from /proc (Linux; null
 * elsewhere): per request it is a figure a busy machine disturbs far less than latency.
 */
function treeCpuMs(root: number): number | null {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // fields after the ")" that ends the command name: state ppid ... utime(14) stime(15)
        const f = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
        stats.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
      } catch { /* ended meanwhile */ }
    }
  } catch { return null; }
  if (!stats.has(root)) return null;
  let ticks = 0;
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, s] of stats) if (!tree.has(pid) && tree.has(s.ppid)) { tree.add(pid); grew = true; }
  }
  for (const pid of tree) ticks += stats.get(pid)!.ticks;
  return ticks * 10; // USER_HZ is 100 on Linux
}

/**
 * Waits until the service's processes stop starting up (their CPU over a second below a third of a
 * core): a second process still loading modules and compiling WASM would be measured as load.
 */
async function settle(pid: number): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (let before = treeCpuMs(pid); before !== null && Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 1000));
    const after = treeCpuMs(pid);
    if (after === null || after - before < 330) return;
    before = after;
  }
}

async function waitUp(url: string, proc: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`kerf serve exited ${proc.exitCode}`);
    try { if ((await fetch(`${url}/v1/openapi.json`)).ok) return; } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error('kerf serve did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function serve(setup: Setup, dir: string): Promise<{ url: string; key: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const bin = setup.root ? join(setup.root, 'bin/kerf.mjs') : BIN;
  const proc = spawn(process.execPath, [...(process.env.BENCH_SERVE_NODE_ARGS?.split(' ').filter(Boolean) ?? []), bin, 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', KERF_BASE_URL: url, KERF_DATA_DIR: dir, LOG_LEVEL: 'warn', KERF_RATE_LIMIT: '0',
      KERF_WORKERS: String(setup.processes), KERF_QUOTE_CACHE: setup.cache ? '1' : '0', KERF_ENGINE_THREADS: '1',
      KERF_GROUP_COMMIT: setup.groupCommit ? '1' : '0',
      // the no-cache setup queues a production-files job per quote: measure quoting, not the job admission
      KERF_MAX_ACTIVE_JOBS_PER_ACCOUNT: '100000',
      // the sources as they are on disk, not a build that may be older (steady state: the same code)
      KERF_DEV: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  await waitUp(url, proc);
  await settle(proc.pid!);
  const key = (JSON.parse(readFileSync(join(dir, 'demo-api-key.json'), 'utf8')) as { api_key: string }).api_key;
  return { url, key, pid: proc.pid!, async stop() { proc.kill('SIGTERM'); await exited; } };
}

async function upload(url: string, auth: Record<string, string>): Promise<{ id: string; status: string; parts: Array<{ detected_thickness_mm: number }> }> {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(FIXTURE)]), 'bench.step');
  const res = await fetch(`${url}/v1/analyze`, { method: 'POST', headers: { ...auth, prefer: 'wait=120' }, body: form });
  const text = await res.text();
  const design = JSON.parse(text) as { id: string; status: string; parts: Array<{ detected_thickness_mm: number }> };
  if (design.status !== 'ready') throw new Error(`bench design: ${res.status} ${text.slice(0, 500)}`);
  return design;
}

/** Waits until a DFM report's production files are no longer pending (at most two minutes). */
async function settledReport(url: string, auth: Record<string, string>, dfmId: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const report = (await (await fetch(`${url}/v1/dfm/${dfmId}`, { headers: auth })).json()) as { production_files?: { status?: string } };
    if (report.production_files?.status !== 'pending') return;
    if (Date.now() > deadline) throw new Error(`bench: the production files of ${dfmId} did not settle`);
    await new Promise((r) => setTimeout(r, 250));
  }
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
  const picked = process.env.BENCH_QUOTES_SETUPS?.split(',').map((n) => SETUPS[Number(n) - 1]).filter(Boolean);
  for (const setup of withBefore(picked?.length ? picked : SETUPS)) {
    const dir = mkdtempSync(join(tmpdir(), 'kerf-bench-quotes-'));
    const svc = await serve(setup, dir);
    try {
      const auth = { authorization: `Bearer ${svc.key}` };
      const body = await quoteBody(svc.url, auth);
      // before any quote: the no-cache setup's quotes queue production-files jobs, which count
      // against the account's job limit that uploads are held to
      // the first upload's analysis leaves V8 tiering up the importer's WASM on background threads for
      // a few seconds; an upload timed meanwhile measures that compile, not the reuse
      if (setup.processes === 1) await settle(svc.pid);
      const reupload = setup.processes === 1 ? await reuploadMs(svc.url, auth, 5) : null;
      const headers = { ...auth, 'content-type': 'application/json' };
      const check = await fetch(`${svc.url}/v1/quotes`, { method: 'POST', headers, body });
      if (check.status !== 201) throw new Error(`bench quote: ${check.status} ${await check.text()}`);
      // steady state: the first quote's report makes its production files in the engine (seconds of
      // CPU on these 2 cores); quotes are measured once they have settled, as a long-running service has
      await settledReport(svc.url, auth, ((await check.json()) as { items: Array<{ dfm: { id: string } }> }).items[0].dfm.id);
      // a short warm-up so both setups are measured with compiled code, not the first requests' JIT
      await autocannon({ url: `${svc.url}/v1/quotes`, method: 'POST', connections: CONNECTIONS, duration: 2, headers, body });
      const load = loadavg()[0];
      const cpuBefore = treeCpuMs(svc.pid);
      const r = await autocannon({ url: `${svc.url}/v1/quotes`, method: 'POST', connections: CONNECTIONS, duration, headers, body });
      const cpuAfter = treeCpuMs(svc.pid);
      // the service's CPU (every process, the event relay included) per answered quote
      const cpuPerQuote = cpuBefore === null || cpuAfter === null || r.requests.total === 0 ? null : Math.round(((cpuAfter - cpuBefore) / r.requests.total) * 100) / 100;
      const row = { setup: setup.label, ...(setup.root ? { root: setup.root } : {}), processes: setup.processes, cache: setup.cache, group_commit: setup.groupCommit, p50_ms: r.latency.p50, p99_ms: r.latency.p99, requests_per_s: Math.round(r.requests.average), service_cpu_ms_per_quote: cpuPerQuote, non_2xx: r.non2xx, errors: r.errors, same_bytes_again_ready_ms: reupload, load_average_1m_before: Number(load.toFixed(2)) };
      rows.push(row);
      console.log(`  ${setup.label.padEnd(36)} p50 ${String(row.p50_ms).padStart(5)} ms  p99 ${String(row.p99_ms).padStart(5)} ms  ${String(row.requests_per_s).padStart(5)} req/s  cpu ${cpuPerQuote ?? '-'} ms/quote  non-2xx ${row.non_2xx}  errors ${row.errors}${reupload === null ? '' : `  same bytes again: ready in ${reupload} ms`}  (load ${row.load_average_1m_before})`);
    } finally {
      await svc.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { connections: CONNECTIONS, duration_s: duration, target_p99_ms: 25, target_same_bytes_again_ms: 20, ...(BEFORE_ROOT ? { before_root: BEFORE_ROOT } : {}), rows };
}
