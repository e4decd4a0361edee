// An upload is spooled to disk while it arrives (under the data dir's tmp/, mode 0600), not held in
// memory, and the spool is gone once the request is answered; an upload over the limit is still 413.
// Real service on a port, raw socket for a request that arrives in two halves.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureBytes } from './helpers/fixtures.ts';
import { startTestService, type TestService } from './helpers/service.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hardening: uploads spooled to disk', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ maxUploadBytes: 2 * 1024 * 1024 }); });
  after(async () => { await t.close(); });

  const spools = (): string[] => readdirSync(join(t.dataDir, 'tmp')).filter((n) => n.startsWith('upload-'));

  it('the first half of an upload waits on disk; the answer comes once the rest arrives, and the spool is removed', async () => {
    const step = Buffer.from(fixtureBytes(L_BRACKET));
    const head = `--XX\r\nContent-Disposition: form-data; name="file"; filename="l.step"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), step, Buffer.from('\r\n--XX--\r\n')]);
    const half = Math.floor(body.length / 2);
    const u = new URL(t.url);
    const s = connect(Number(u.port), u.hostname);
    let answer = '';
    s.on('data', (c) => { answer += c; });
    await new Promise((r) => s.once('connect', r));
    s.write(`POST /v1/analyze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.keyA}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    s.write(body.subarray(0, half));
    const deadline = Date.now() + 10_000;
    let spooled: string[] = [];
    while ((spooled = spools()).length === 0 || statSync(join(t.dataDir, 'tmp', spooled[0])).size < half - head.length) {
      assert.ok(Date.now() < deadline, 'the arriving upload is not on disk');
      await sleep(20);
    }
    assert.equal(statSync(join(t.dataDir, 'tmp', spooled[0])).mode & 0o777, 0o600);
    s.write(body.subarray(half)); // not ended: the server closes after its answer (Connection: close)
    await new Promise((r) => s.once('close', r));
    assert.match(answer, /^HTTP\/1\.1 202/, answer.slice(0, 200));
    assert.deepEqual(spools(), [], 'spool removed');
  });

  it('an upload over the limit is 413 file_too_large and leaves no spool', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(3 * 1024 * 1024, 0x41)]), 'big.step');
    const r = await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${t.keyA}` }, body: form });
    assert.equal(r.status, 413);
    assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'file_too_large');
    assert.deepEqual(spools(), []);
  });
});
