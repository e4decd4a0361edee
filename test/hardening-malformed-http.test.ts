// Malformed HTTP gets the contract's error envelope with a precise status, never a 500 or fastify's
// own shape: multipart without a boundary, with a boundary the body does not use, cut short; a URL or
// headers too long (414, 431); a body that does not match its Content-Length. Raw sockets, since HTTP
// clients refuse to send most of these.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestService, type TestService } from './helpers/service.ts';

/** Sends raw bytes, returns the first response's status and parsed JSON body. */
function raw(url: string, data: string, opts: { halfClose?: boolean } = {}): Promise<{ status: number; headers: string; body: { error?: { code: string; type: string; message: string; request_id: string } } }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    // written, not ended, unless the end is the point: a client that half-closes may lose its answer
    const s = connect(Number(u.port), u.hostname, () => (opts.halfClose ? s.end(data) : s.write(data)));
    let out = '';
    s.on('data', (c) => { out += c; });
    s.on('error', () => {});
    s.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n(\{[\s\S]*?\})(?=HTTP\/1\.1|$)/.exec(out);
      if (!m) { reject(new Error(`no response: ${out.slice(0, 300)}`)); return; }
      resolve({ status: Number(m[1]), headers: m[2].toLowerCase(), body: JSON.parse(m[3]) });
    });
  });
}

describe('hardening: malformed HTTP is answered in the error envelope', () => {
  let t: TestService;
  let auth: string;
  const part = '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.step"\r\n\r\nISO-10303-21;\r\n--XX--\r\n';
  const post = (contentType: string, body: string, length = Buffer.byteLength(body)) =>
    `POST /v1/analyze HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: ${contentType}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`;
  before(async () => { t = await startTestService(); auth = `Authorization: Bearer ${t.keyA}\r\n`; });
  after(async () => { await t.close(); });

  const expect = (r: Awaited<ReturnType<typeof raw>>, status: number, code: string): void => {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.error?.code, code);
    assert.equal(r.body.error?.type, 'invalid_request_error');
    assert.match(r.body.error!.request_id, /^req_/);
    assert.match(r.headers, /content-type: application\/json/);
  };

  it('multipart without a boundary: 400 invalid_multipart naming the boundary', async () => {
    const r = await raw(t.url, post('multipart/form-data', part));
    expect(r, 400, 'invalid_multipart');
    assert.match(r.body.error!.message, /boundary/);
  });

  it('multipart with a boundary the body does not use: 400 invalid_multipart', async () => {
    expect(await raw(t.url, post('multipart/form-data; boundary=YY', part)), 400, 'invalid_multipart');
  });

  it('multipart cut short: 400 invalid_multipart', async () => {
    expect(await raw(t.url, post('multipart/form-data; boundary=XX', part.slice(0, -12))), 400, 'invalid_multipart');
  });

  it('a body shorter than its Content-Length: 400 invalid_content_length', async () => {
    expect(await raw(t.url, post('multipart/form-data; boundary=XX', part, part.length + 50), { halfClose: true }), 400, 'invalid_content_length');
  });

  it('a URL too long: 414; headers too large: 431', async () => {
    expect(await raw(t.url, `GET /v1/designs/${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`), 414, 'invalid_request');
    expect(await raw(t.url, `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`), 431, 'invalid_request');
  });

  it('bytes that are not HTTP: 400 invalid_request', async () => {
    expect(await raw(t.url, 'HELLO THERE\r\n\r\n'), 400, 'invalid_request');
  });
});
