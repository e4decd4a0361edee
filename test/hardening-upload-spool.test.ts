// An upload is spooled to disk while it arrives (under the data dir's tmp/, mode 0600), not held in
// memory, and the spool is gone once the request is answered; an upload over the limit is still 413.
// Real service on a port, raw socket for a request that arrives in two halves.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createReadStream, createWriteStream, readdirSync, statSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fixtureBytes } from './helpers/fixtures.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { webSession } from './helpers/web-session.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const UPLOAD_MB = 24;
setFlagsFromString('--expose-gc');

/** POST /v1/analyze of the file at `path`, streamed from disk (the client holds no copy of it). */
async function postFile(t: TestService, path: string, name: string, to: { path: string; headers: Record<string, string>; fields?: Record<string, string> } = { path: '/v1/analyze', headers: { authorization: `Bearer ${t.keyA}` } }): Promise<number> {
  const fields = Object.entries(to.fields ?? {}).map(([k, v]) => `--XX\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  const head = Buffer.from(`${fields}--XX\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from('\r\n--XX--\r\n');
  const u = new URL(t.url);
  const req = request({ host: u.hostname, port: u.port, path: to.path, method: 'POST', headers: {
    ...to.headers, 'content-type': 'multipart/form-data; boundary=XX', 'content-length': head.length + statSync(path).size + tail.length,
  } });
  const answered = once(req, 'response') as Promise<[IncomingMessage]>;
  req.write(head);
  const file = createReadStream(path);
  file.pipe(req, { end: false });
  await once(file, 'end');
  req.end(tail);
  const [res] = await answered;
  res.resume();
  await once(res, 'end');
  return res.statusCode!;
}

/** An MCP prepare_upload's upload_url (the tool called over the service's /mcp endpoint). */
async function prepareUpload(t: TestService, filename: string): Promise<string> {
  const r = await fetch(`${t.url}/mcp`, {
    method: 'POST', headers: { authorization: `Bearer ${t.keyA}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'prepare_upload', arguments: { request: { filename }, operation_key: randomUUID() } } }),
  });
  const text = await r.text();
  const message = JSON.parse(text.trimStart().startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) as { result: { structuredContent: { upload_url: string } } };
  return message.result.structuredContent.upload_url;
}

/** PUTs the file at `path` to `url`, streamed from disk. */
async function putFile(url: string, path: string): Promise<number> {
  const u = new URL(url);
  const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': statSync(path).size } });
  const answered = once(req, 'response') as Promise<[IncomingMessage]>;
  createReadStream(path).pipe(req);
  const [res] = await answered;
  res.resume();
  await once(res, 'end');
  return res.statusCode!;
}

/** Runs `work` while sampling the live (collected) Buffer memory; its peak over the start, MiB. */
async function livePeak<T>(work: () => Promise<T>): Promise<{ result: T; peakMib: number }> {
  const gc = runInNewContext('gc') as () => void;
  gc();
  const baseline = process.memoryUsage().arrayBuffers;
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      gc(); // what is live, not garbage not yet collected
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - baseline);
      await sleep(10);
    }
  })();
  try {
    return { result: await work(), peakMib: peak / 1048576 };
  } finally {
    sampling = false;
    await sampler;
  }
}

/** The L bracket with a comment of `mb` MiB after DATA; (still a valid STEP file), written in pieces. */
async function writeBigStep(path: string, mb: number): Promise<void> {
  const text = Buffer.from(fixtureBytes(L_BRACKET)).toString('latin1');
  const at = text.indexOf('DATA;') + 'DATA;'.length;
  const out = createWriteStream(path);
  const write = async (chunk: string | Buffer): Promise<void> => { if (!out.write(chunk)) await once(out, 'drain'); };
  await write(`${text.slice(0, at)}\n/*`);
  const filler = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < mb; i++) await write(filler);
  await write(`*/${text.slice(at)}`);
  out.end();
  await once(out, 'finish');
}

describe('hardening: uploads spooled to disk', () => {
  let t: TestService;
  // no job worker: the stored uploads stay queued, so only the upload path holds memory
  before(async () => { t = await startTestService({ maxUploadBytes: (UPLOAD_MB + 1) * 1024 * 1024 }, { jobs: false }); });
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

  it('concurrent large uploads are not held in memory: live buffers stay far below one upload while four arrive', async () => {
    // a valid STEP of 24 MiB (the bracket with a long comment), sent four at a time from the file
    const big = join(t.dataDir, 'big.step');
    await writeBigStep(big, UPLOAD_MB);
    const { result: statuses, peakMib: mib } = await livePeak(() => Promise.all([0, 1, 2, 3].map((i) => postFile(t, big, `big-${i}.step`))));
    assert.deepEqual(statuses, [202, 202, 202, 202]);
    // before spooling to the store, each request read its whole file into a Buffer: 24-96 MiB live
    assert.ok(mib < UPLOAD_MB / 2, `live buffers peaked at ${mib.toFixed(1)} MiB over the baseline while four ${UPLOAD_MB} MiB uploads arrived`);
    assert.deepEqual(spools(), [], 'every spool removed');
  });

  it('the web site\'s upload form is spooled the same way', async () => {
    const big = join(t.dataDir, 'big.step');
    await writeBigStep(big, UPLOAD_MB);
    const { cookie, csrf } = await webSession(t);
    // spooled where the janitor sweeps, as REST's (the OS temp dir is swept by no one)
    const webSpools = spools;
    const before = new Set(webSpools());
    const to = { path: '/designs', headers: { cookie }, fields: { _csrf: csrf } };
    const { result: statuses, peakMib: mib } = await livePeak(() => Promise.all([0, 1, 2, 3].map((i) => postFile(t, big, `web-${i}.step`, to))));
    assert.deepEqual(statuses, [303, 303, 303, 303], 'each upload redirects to its design');
    assert.ok(mib < UPLOAD_MB / 2, `live buffers peaked at ${mib.toFixed(1)} MiB over the baseline while four ${UPLOAD_MB} MiB web uploads arrived`);
    assert.deepEqual(webSpools().filter((n) => !before.has(n)), [], 'no web spool left');
  });

  it('the MCP upload link\'s PUT is spooled the same way', async () => {
    const big = join(t.dataDir, 'big.step');
    await writeBigStep(big, UPLOAD_MB);
    const urls: string[] = [];
    for (let i = 0; i < 4; i++) urls.push(await prepareUpload(t, `mcp-${i}.step`));
    const { result: statuses, peakMib: mib } = await livePeak(() => Promise.all(urls.map((u) => putFile(u, big))));
    assert.deepEqual(statuses, [201, 201, 201, 201]);
    assert.ok(mib < UPLOAD_MB / 2, `live buffers peaked at ${mib.toFixed(1)} MiB over the baseline while four ${UPLOAD_MB} MiB PUTs arrived`);
    assert.deepEqual(spools(), [], 'every spool removed');
  });

  it('an upload over the limit is 413 file_too_large and leaves no spool', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc((UPLOAD_MB + 1) * 1024 * 1024 + 1, 0x41)]), 'big.step');
    const r = await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${t.keyA}` }, body: form });
    assert.equal(r.status, 413);
    assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'file_too_large');
    assert.deepEqual(spools(), []);
  });
});
