// The sender against a real receiver on 127.0.0.1 that checks every signature with its own
// node:crypto HMAC; the SSRF guard on URLs and on resolved addresses; verifyWebhook.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookSender, verifyWebhook } from '../src/index.ts';

interface Seen { url: string; headers: IncomingMessage['headers']; raw: Buffer }

function hmacHex(secret: string, ts: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${ts}.`), raw])).digest('hex');
}

describe('webhook sender', () => {
  const seen: Seen[] = [];
  let answer: (req: IncomingMessage, res: ServerResponse) => void = (_q, res) => { res.writeHead(204).end(); };
  let server: Server;
  let base = '';
  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => { seen.push({ url: req.url ?? '', headers: req.headers, raw: Buffer.concat(chunks) }); answer(req, res); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  const request = (url: string, extra: Partial<{ secrets: string[]; timeoutMs: number }> = {}) => ({
    url, eventType: 'design.ready', body: JSON.stringify({ id: 'evt_1', type: 'design.ready', created_at: '2026-01-01T00:00:00.000Z', data: { id: 'des_1', note: 'ünïcode' } }),
    secrets: extra.secrets ?? ['whsec_a'], timestamp: 1_800_000_000, timeoutMs: extra.timeoutMs ?? 5000,
  });

  it('POSTs the exact body with the X-SVC headers; each v1= signature checks out with an independent HMAC', async () => {
    const sender = createWebhookSender({ allowHttpLoopback: true });
    seen.length = 0;
    const out = await sender.send(request(`${base}/hook`, { secrets: ['whsec_new', 'whsec_old'] }));
    assert.deepEqual(out, { delivered: true, responseStatus: 204, error: null });
    assert.equal(seen.length, 1);
    const [r] = seen;
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers['x-svc-event'], 'design.ready');
    assert.equal(r.headers['x-svc-timestamp'], '1800000000');
    assert.equal(r.raw.toString('utf8'), request('').body);
    const ts = String(r.headers['x-svc-timestamp']);
    assert.equal(r.headers['x-svc-signature'], `v1=${hmacHex('whsec_new', ts, r.raw)},v1=${hmacHex('whsec_old', ts, r.raw)}`);
  });

  it('a non-2xx answer, a redirect (not followed) and a receiver that never answers are failures', async () => {
    const sender = createWebhookSender({ allowHttpLoopback: true });
    answer = (_q, res) => { res.writeHead(503).end('busy'); };
    assert.deepEqual(await sender.send(request(`${base}/hook`)), { delivered: false, responseStatus: 503, error: 'the receiver answered 503' });
    seen.length = 0;
    answer = (req, res) => { if (req.url === '/moved') res.writeHead(307, { location: `${base}/target` }).end(); else res.writeHead(200).end(); };
    const moved = await sender.send(request(`${base}/moved`));
    assert.equal(moved.delivered, false);
    assert.equal(moved.responseStatus, 307);
    assert.deepEqual(seen.map((s) => s.url), ['/moved'], 'the redirect target is never called');
    answer = () => { /* never answers */ };
    const slow = await sender.send(request(`${base}/hook`, { timeoutMs: 300 }));
    assert.deepEqual(slow, { delivered: false, responseStatus: null, error: 'no response within 0.3 s' });
    answer = (_q, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(Buffer.alloc(2 * 1024 * 1024, 120)); };
    assert.equal((await sender.send(request(`${base}/hook`))).delivered, true, 'a large response body is cut, not a failure');
    answer = (_q, res) => { res.writeHead(204).end(); };
  });

  it('refuses non-https URLs and private, loopback, link-local and metadata addresses', () => {
    const strict = createWebhookSender();
    for (const url of [
      'http://example.com/hook', 'ftp://example.com/', `${base}/hook`, 'https://127.0.0.1/', 'https://localhost/', 'https://[::1]/',
      'https://10.1.2.3/', 'https://172.16.0.1/', 'https://192.168.1.10/', 'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/', 'https://0.0.0.0/', 'https://[fd00:ec2::254]/', 'https://[fe80::1]/', 'https://[::ffff:10.0.0.1]/',
      'https://metadata.google.internal/computeMetadata/v1/', 'not a url',
    ]) assert.notEqual(strict.refuseUrl(url), null, url);
    assert.equal(strict.refuseUrl('https://hooks.example.com/kerf'), null);
    assert.equal(strict.refuseUrl('https://93.184.215.14/'), null);
    const dev = createWebhookSender({ allowHttpLoopback: true });
    assert.equal(dev.refuseUrl(`${base}/hook`), null);
    assert.equal(dev.refuseUrl('http://localhost:3000/hook'), null);
    assert.notEqual(dev.refuseUrl('http://example.com/hook'), null, 'http only on loopback');
    assert.notEqual(dev.refuseUrl('https://10.0.0.1/'), null, 'private stays refused');
  });

  it('checks every resolved address: a public name that resolves to a private one is refused before connecting', async () => {
    seen.length = 0;
    const resolved: string[] = [];
    const sender = createWebhookSender({
      resolve: async (host) => { resolved.push(host); return host === 'evil.example' ? [{ address: '93.184.215.14', family: 4 }, { address: '169.254.169.254', family: 4 }] : [{ address: '10.0.0.7', family: 4 }]; },
    });
    for (const host of ['evil.example', 'intranet.example']) {
      const out = await sender.send(request(`https://${host}/hook`));
      assert.equal(out.delivered, false);
      assert.equal(out.responseStatus, null);
      assert.match(out.error ?? '', /^refused: /, out.error ?? '');
    }
    assert.deepEqual(resolved, ['evil.example', 'intranet.example']);
    // a loopback name allowed for development reaches the receiver through the same guarded lookup
    const port = new URL(base).port;
    const dev = createWebhookSender({ allowHttpLoopback: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    assert.equal((await dev.send(request(`http://localhost:${port}/hook`))).delivered, true);
    assert.equal(seen.length, 1);
  });
});

describe('verifyWebhook', () => {
  const raw = Buffer.from('{"id":"evt_1","type":"quote.ready"}');
  const ts = 1_800_000_000;
  const sig = (secret: string, body: Buffer = raw) => `v1=${createHmac('sha256', secret).update(`${ts}.`).update(body).digest('hex')}`;
  const now = ts * 1000 + 10_000;

  it('accepts a genuine delivery, with any of several signatures, from a Headers object or a plain record', () => {
    assert.equal(verifyWebhook(raw, { 'X-SVC-Timestamp': String(ts), 'X-SVC-Signature': sig('whsec_a') }, 'whsec_a', { toleranceS: 300, now }), true);
    assert.equal(verifyWebhook(raw.toString(), new Headers({ 'x-svc-timestamp': String(ts), 'x-svc-signature': `${sig('whsec_new')},${sig('whsec_old')}` }), 'whsec_old', { now }), true);
    assert.equal(verifyWebhook(raw, { 'x-svc-timestamp': String(ts), 'x-svc-signature': sig('whsec_b') }, ['whsec_a', 'whsec_b'], { now }), true);
  });

  it('refuses another secret, an altered body, a stale or missing timestamp and malformed signatures', () => {
    const h = { 'x-svc-timestamp': String(ts), 'x-svc-signature': sig('whsec_a') };
    assert.equal(verifyWebhook(raw, h, 'whsec_b', { now }), false);
    assert.equal(verifyWebhook(Buffer.from('{"id":"evt_2","type":"quote.ready"}'), h, 'whsec_a', { now }), false);
    assert.equal(verifyWebhook(raw, h, 'whsec_a', { now: ts * 1000 + 301_000 }), false);
    assert.equal(verifyWebhook(raw, h, 'whsec_a', { now: ts * 1000 - 301_000 }), false);
    assert.equal(verifyWebhook(raw, { 'x-svc-signature': sig('whsec_a') }, 'whsec_a', { now }), false);
    assert.equal(verifyWebhook(raw, { ...h, 'x-svc-signature': 'v1=zz' }, 'whsec_a', { now }), false);
    assert.equal(verifyWebhook(raw, { ...h, 'x-svc-signature': sig('whsec_a').replace('v1=', 'v0=') }, 'whsec_a', { now }), false);
  });

  it('throws on a missing or empty secret instead of accepting what anyone can sign with the empty key', () => {
    const forged = { 'x-svc-timestamp': String(ts), 'x-svc-signature': sig('') };
    assert.throws(() => verifyWebhook(raw, forged, '', { now }), TypeError);
    assert.throws(() => verifyWebhook(raw, forged, ['whsec_a', ''], { now }), TypeError);
    assert.throws(() => verifyWebhook(raw, forged, [], { now }), TypeError);
    assert.throws(() => verifyWebhook(raw, forged, undefined as unknown as string, { now }), TypeError);
  });
});
