// The first `npm start`: on a terminal the demo account gets a web password printed once beside its
// key, so "open the browser and sign in" needs no sign-up; a second start on a taken port says which
// variable to set, in one line with exit 1, no stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CookieJar } from './helpers/web-session.ts';

const KERF = fileURLToPath(new URL('../bin/kerf.mjs', import.meta.url));

/** `kerf ARGS` to its end, without a terminal, with none of the environment's MongoDB or Stripe settings. */
function kerf(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { MONGODB_URL: _m, STRIPE_SECRET_KEY: _s, STRIPE_WEBHOOK_SECRET: _w, ...base } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KERF, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('kerf serve on a port in use says "port N is in use: set PORT" and exits 1', async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), 'kerf-port-'));
  try {
    const r = await kerf(['serve'], { PORT: String(port), HOST: '127.0.0.1', KERF_DATA_DIR: dir, LOG_LEVEL: 'warn', KERF_WORKERS: '1' });
    assert.equal(r.code, 1, r.stderr);
    const line = r.stderr.split('\n').find((l) => l.includes('port_in_use'));
    assert.ok(line, r.stderr);
    const { error } = JSON.parse(line) as { error: { code: string; message: string; param: string } };
    assert.ok(error.message.startsWith(`port ${port} is in use: set PORT`), error.message);
    assert.equal(error.param, 'PORT');
    assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
  } finally {
    blocker.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the first start on a terminal prints a web password for the demo account that signs in; without a terminal none', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-demo-web-'));
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as { port: number }).port;
  await new Promise<void>((r) => blocker.close(() => r()));
  const url = `http://127.0.0.1:${port}`;
  // script(1) gives the service a pseudo-terminal as stdout, as `npm start` in a shell has
  const cmd = `${process.execPath} ${KERF} serve`;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', KERF_BASE_URL: url, KERF_DATA_DIR: dir, LOG_LEVEL: 'warn', KERF_WORKERS: '1', MONGODB_URL: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
  try {
    const deadline = Date.now() + 60_000;
    let demo: { web?: { sign_in_url: string; email: string; password: string } } | undefined;
    while (!demo) {
      assert.ok(Date.now() < deadline, `no demo line: ${out}`);
      const line = out.split(/\r?\n/).find((l) => l.includes('"api_key"'));
      if (line) demo = JSON.parse(line.slice(line.indexOf('{')));
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(demo.web, 'the demo line carries web credentials');
    assert.equal(demo.web.sign_in_url, `${url}/signin`);
    assert.match(out, new RegExp(`sign in as ${demo.web.email} with password ${demo.web.password}`));
    for (;;) {
      try { if ((await fetch(`${url}/v1/health`)).ok) break; } catch { /* not yet listening */ }
      assert.ok(Date.now() < deadline, 'service did not listen');
      await new Promise((r) => setTimeout(r, 100));
    }
    const cookies = new CookieJar();
    let r = cookies.keep(await fetch(demo.web.sign_in_url));
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await r.text())![1];
    r = cookies.keep(await fetch(demo.web.sign_in_url, {
      method: 'POST', redirect: 'manual',
      headers: { ...cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, next: '/designs/new', email: demo.web.email, password: demo.web.password }),
    }));
    assert.equal(r.status, 303, await r.text());
    assert.equal(r.headers.get('location'), '/designs/new');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
    rmSync(dir, { recursive: true, force: true });
  }
});
