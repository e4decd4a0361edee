// A gzip-compressed upload may expand to at most 2 x the upload limit (#33.2): a 480 MB bomb in a
// few hundred KB is refused with 413 file_too_large naming the limit, checked as a stream while the
// request is answered, so nothing is stored and no engine thread runs it; a real compressed STEP under
// the limit is analysed as before. Real service on a port, default and a small upload limit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync, createGzip } from 'node:zlib';
import { fixtureBytes } from './helpers/fixtures.ts';
import { clientsFor, pollDesign, type Client } from './helpers/client.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { engineStats } from './helpers/engine-stats.ts';

const STEP_HEAD = 'ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((\'\'),\'2;1\');\nFILE_NAME(\'bomb.step\',\'\',(\'\'),(\'\'),\'\',\'\',\'\');\nFILE_SCHEMA((\'AUTOMOTIVE_DESIGN\'));\nENDSEC;\nDATA;\n';
const STEP_TAIL = 'ENDSEC;\nEND-ISO-10303-21;\n';

/** A STEP text padded with `mb` MB of blanks, gzip-compressed as a stream (a few hundred KB). */
async function bomb(mb: number): Promise<Uint8Array> {
  const gz = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gz.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((r) => gz.once('end', r));
  gz.write(STEP_HEAD);
  const blanks = Buffer.alloc(1048576, 0x20);
  for (let i = 0; i < mb; i++) if (!gz.write(blanks)) await new Promise((r) => gz.once('drain', r));
  gz.end(STEP_TAIL);
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

function form(bytes: Uint8Array, name: string): FormData {
  const f = new FormData();
  f.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
  return f;
}

describe('compressed uploads under the default 50 MiB upload limit', () => {
  let t: TestService;
  let a: Client;
  before(async () => { t = await startTestService(); ({ a } = await clientsFor(t)); });
  after(async () => { await t?.close(); });

  it('a 480 MB gzip bomb is refused with 413 file_too_large naming the 100 MiB limit; nothing is stored or run', async () => {
    const bytes = await bomb(480);
    assert.ok(bytes.length < 1048576, `the bomb is ${bytes.length} bytes`);
    const r = await a.post('/v1/analyze', { form: form(bytes, 'bomb.step.gz') });
    assert.equal(r.status, 413, r.text);
    assert.equal(r.body.error.code, 'file_too_large');
    assert.match(r.body.error.message, /100 MiB \(104857600 bytes\).*2 x the upload limit of 50 MiB/);
    assert.equal(await t.service.store.jobs.countActive(t.accountA), 0, 'no design or job was kept');
    assert.equal(engineStats(t).completed + engineStats(t).failed + engineStats(t).running, 0, 'no engine job ran');
  });

  it('a real STEP file, gzip-compressed, is analysed as before', async () => {
    const gz = gzipSync(fixtureBytes('fixtures/sheet/l_t2_r2.step'));
    const r = await a.post('/v1/analyze', { form: form(gz, 'l_t2_r2.stpZ') });
    assert.equal(r.status, 202, r.text);
    const d = await pollDesign(a, r.body.id, 120_000);
    assert.equal(d.status, 'ready', JSON.stringify(d.error));
    assert.equal(d.parts.length, 1);
  });

  it('a corrupt gzip stream is 422 invalid_step, as the engine says', async () => {
    const gz = gzipSync(fixtureBytes('fixtures/sheet/l_t2_r2.step'));
    const cut = gz.subarray(0, Math.floor(gz.length / 2));
    const r = await a.post('/v1/analyze', { form: form(cut, 'cut.stpZ') });
    assert.equal(r.body.error?.code, 'invalid_step', r.text);
  });
});

describe('the cap follows the configured upload limit', () => {
  let t: TestService;
  let a: Client;
  before(async () => { t = await startTestService({ maxUploadBytes: 64 * 1024 }); ({ a } = await clientsFor(t)); });
  after(async () => { await t?.close(); });

  it('64 KiB upload limit: a file expanding to 130 KiB is refused at 128 KiB; one expanding to 120 KiB passes the cap', async () => {
    const pad = (kb: number) => gzipSync(Buffer.from(STEP_HEAD + ' '.repeat(kb * 1024 - STEP_HEAD.length - STEP_TAIL.length) + STEP_TAIL));
    const over = await a.post('/v1/analyze', { form: form(pad(130), 'over.stpZ') });
    assert.equal(over.status, 413, over.text);
    assert.match(over.body.error.message, /128 KiB \(131072 bytes\).*upload limit of 64 KiB/);
    const under = await a.post('/v1/analyze', { form: form(pad(120), 'under.stpZ') });
    assert.equal(under.status, 202, under.text);
  });
});
