// Request, header and idle timeouts: a client that trickles its headers or its upload, or holds a
// connection silent, is answered 408 in the error envelope (or cut off) once the configured limit
// has passed, instead of holding the connection (and an upload buffer) indefinitely. The limits
// are set small here; the checks wait several times longer than them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startTestService, type TestService } from './helpers/service.ts';

/** Opens a socket, writes `first`, then `drip` every 200 ms; resolves with what came back when the server closed it (or null after `giveUpMs`). */
function slowClient(url: string, first: string, drip: string | null, giveUpMs: number): Promise<string | null> {
  const u = new URL(url);
  return new Promise((resolve) => {
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    const s: Socket = connect(Number(u.port), u.hostname, () => {
      s.write(first);
      if (drip) timer = setInterval(() => { if (s.writable) s.write(drip); }, 200);
    });
    const giveUp = setTimeout(() => { clearInterval(timer); s.destroy(); resolve(null); }, giveUpMs);
    s.on('data', (c) => { out += c; });
    s.on('error', () => {});
    s.on('close', () => { clearInterval(timer); clearTimeout(giveUp); resolve(out); });
  });
}

describe('hardening: request, header and idle timeouts', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ requestTimeoutMs: 1500, headersTimeoutMs: 1000, idleTimeoutMs: 2000 }); });
  after(async () => { await t.close(); });

  it('headers that never finish: 408 in the envelope, connection closed', async () => {
    const out = await slowClient(t.url, 'GET /v1/health HTTP/1.1\r\nHost: x\r\n', 'X-A: b\r\n', 15_000);
    assert.ok(out !== null, 'the server kept the connection open');
    assert.match(out, /^HTTP\/1\.1 408/);
    assert.match(out, /"code":"invalid_request"/);
  });

  it('an upload trickled byte by byte is cut off', async () => {
    const head = `POST /v1/analyze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.keyA}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 1000000\r\n\r\n--XX\r\n`;
    const out = await slowClient(t.url, head, 'a', 15_000);
    assert.ok(out !== null, 'the trickling upload was allowed to go on');
  });

  it('a silent connection is closed', async () => {
    const out = await slowClient(t.url, '', null, 15_000);
    assert.ok(out !== null, 'an idle connection stayed open');
  });
});
