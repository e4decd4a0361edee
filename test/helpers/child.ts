// `kerf serve` as a child process (the real binary), for restart and scale-out tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openStore, type Store } from '@kerf/store';

const BIN = fileURLToPath(new URL('../../bin/kerf.mjs', import.meta.url));

export interface ChildService {
  proc: ChildProcess;
  url: string;
  /** stdout lines parsed as JSON (pino logs and the demo-key line) */
  lines: Array<Record<string, unknown>>;
  stopped: Promise<number | null>;
}

export async function spawnServe(env: Record<string, string>, port: number): Promise<ChildService> {
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', KERF_BASE_URL: url, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let buf = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try { lines.push(JSON.parse(line) as Record<string, unknown>); } catch { /* not JSON */ }
    }
  });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
  const stopped = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`kerf serve exited ${proc.exitCode}: ${stderr}`);
    try {
      const r = await fetch(`${url}/v1/openapi.json`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { proc.kill('SIGKILL'); throw new Error(`kerf serve did not start: ${stderr}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, url, lines, stopped };
}

/**
 * The demo key this start created (null when it created none). Without a terminal the service
 * writes it to its data dir instead of stdout.
 */
export function demoKey(child: ChildService): { account: string; key: string } | null {
  const logged = child.lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('created the demo account') && typeof l.file === 'string');
  const line = logged ? JSON.parse(readFileSync(String(logged.file), 'utf8')) as Record<string, unknown> : child.lines.find((l) => typeof l.api_key === 'string');
  return line ? { account: String(line.demo_account), key: String(line.api_key) } : null;
}

export async function stopChild(child: ChildService, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return child.proc.exitCode;
  child.proc.kill(signal);
  return child.stopped;
}

/**
 * A temporary data dir for `kerf serve` children of one suite (call inside describe), with the
 * store opened on it on first use; the suite's after() SIGKILLs every child in `children`, closes
 * the store and removes the dir.
 */
export function childServiceGroup(prefix: string): { dir: string; children: ChildService[]; store(): Promise<Store> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildService[] = [];
  let store: Store | null = null;
  after(async () => {
    for (const c of children) await stopChild(c, 'SIGKILL');
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, children, store: async () => (store ??= await openStore({ dataDir: dir })) };
}
