// OAuth test pieces: a loopback redirect target that records the callback, and a person in a
// headless Chromium who starts an authorization, signs in when asked and answers the consent page.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { freePort } from './service.ts';

export interface Callback { url: string; server: Server; port: number; last: URL | null }

export async function callbackServer(): Promise<Callback> {
  const port = await freePort();
  const cb: Callback = { url: `http://127.0.0.1:${port}/cb`, port, last: null, server: createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname === '/cb') cb.last = url; // not the browser's favicon request
    res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
  }) };
  await new Promise<void>((r) => cb.server.listen(port, '127.0.0.1', r));
  return cb;
}

/** The OAuth error code a client library reports, failing when the call succeeds. */
export async function oauthError(run: () => Promise<unknown>): Promise<{ error: string; status?: number }> {
  try { await run(); } catch (err) {
    const e = err as { error?: string; status?: number };
    if (e.error) return { error: e.error, status: e.status };
    throw err;
  }
  assert.fail('expected an OAuth error');
}

export const connect = async (p: Page): Promise<void> => { await p.getByRole('button', { name: 'Connect' }).click(); };

/** Starts an authorization (S256) in the browser, signs in when asked, lets `decide` answer; returns the callback and the checks. */
export async function authorizeInBrowser(page: Page, config: client.Configuration, o: {
  cb: Callback; scope: string; email: string; password: string; decide?: (p: Page) => Promise<void>; redirectUri?: string;
}): Promise<{ callback: URL; verifier: string; state: string }> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: o.redirectUri ?? o.cb.url, scope: o.scope, state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  o.cb.last = null;
  await page.goto(url.href);
  if (page.url().includes('/signin')) {
    await page.fill('#email', o.email);
    await page.fill('#password', o.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.waitForURL(/\/oauth\/consent\//);
  await (o.decide ?? connect)(page);
  await page.waitForURL((u) => u.href.startsWith(`http://127.0.0.1:${o.cb.port}/`));
  return { callback: o.cb.last!, verifier, state };
}

/** A loopback https server with a certificate made for the test; `docs` maps a path to its JSON. */
export async function metadataServer(): Promise<{ base: string; docs: Map<string, unknown>; fetches: string[]; server: HttpsServer }> {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-cimd-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const docs = new Map<string, unknown>();
  const fetches: string[] = [];
  const server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    fetches.push(req.url ?? '');
    const doc = docs.get(req.url ?? '');
    if (doc === undefined) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' }).end(JSON.stringify(doc));
  });
  rmSync(dir, { recursive: true, force: true });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { base: `https://127.0.0.1:${port}`, docs, fetches, server };
}
