// The same bad input gets the same code and message from the CLI, the library and the HTTP API
// (#19.6): one table of inputs, each run through every way in that takes it, compared.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '@kerf/engine';
import { startTestService, type TestService } from './helpers/service.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const L_BRACKET = join(ROOT, 'fixtures/sheet/l_t2_r2.step');
const CONFIG = { defaults: { material_id: 'mat_mild_steel_2_0mm' } };

interface Refusal { code: string; message: string }

/** The first JSON error line a `kerf` run printed on stderr. */
function cli(...args: string[]): Refusal & { exit: number | null } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/kerf.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const line = r.stderr.split('\n').find((l) => l.startsWith('{'));
  assert.ok(line, `kerf ${args.join(' ')} printed no JSON error (exit ${r.status}): ${r.stderr}`);
  const { code, message } = (JSON.parse(line) as { error: Refusal }).error;
  return { code, message, exit: r.status };
}

async function library(bytes: Uint8Array, options: { kFactor?: number } = {}): Promise<Refusal> {
  try {
    await analyze(bytes, { fileName: 'part.step', ...options });
  } catch (err) {
    const e = err as Refusal;
    return { code: e.code, message: e.message };
  }
  assert.fail('the library accepted it');
}

describe('one bad input, one refusal: CLI, library, HTTP', () => {
  let t: TestService;
  let dir: string;
  const UPLOAD_LIMIT = 256 * 1024;

  const http = async (path: string, form: FormData): Promise<{ status: number; error: Refusal & { param: string | null } }> => {
    const r = await fetch(t.url + path, { method: 'POST', body: form, headers: { authorization: `Bearer ${t.keyA}` } });
    return { status: r.status, error: ((await r.json()) as { error: Refusal & { param: string | null } }).error };
  };
  const fileForm = (bytes: Uint8Array, fields: Record<string, string> = {}): FormData => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'part.step');
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return form;
  };

  before(async () => {
    t = await startTestService({ maxUploadBytes: UPLOAD_LIMIT });
    dir = mkdtempSync(join(tmpdir(), 'kerf-consistent-'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const badFiles: Array<[string, Uint8Array, RegExp]> = [
    ['a ZIP renamed .step', new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new TextEncoder().encode('part.step and more zip bytes')]), /ZIP archive/],
    ['an empty file', new Uint8Array(0), /empty/],
  ];
  for (const [what, bytes, says] of badFiles) {
    it(`${what}: kerf analyze, kerf dfm, analyze() and POST /v1/analyze refuse it alike`, async () => {
      const path = join(dir, `${what.replace(/\W+/g, '_')}.step`);
      writeFileSync(path, bytes);
      const lib = await library(bytes);
      assert.equal(lib.code, 'invalid_step');
      assert.match(lib.message, says);
      const viaAnalyze = cli('analyze', path);
      const viaDfm = cli('dfm', path, '--configuration', JSON.stringify(CONFIG));
      const viaHttp = await http('/v1/analyze', fileForm(bytes));
      assert.equal(viaHttp.status, 422);
      assert.equal(viaHttp.error.param, 'file');
      for (const [how, got] of [['kerf analyze', viaAnalyze], ['kerf dfm', viaDfm], ['HTTP', viaHttp.error]] as const) {
        assert.deepEqual({ code: got.code, message: got.message }, lib, how);
      }
      assert.equal(viaAnalyze.exit, 1);
      assert.equal(viaDfm.exit, 1);
    });
  }

  for (const quantity of [0, -1]) {
    it(`quantity ${quantity}: kerf quote and POST /v1/quotes (file) refuse it alike`, async () => {
      const viaCli = cli('quote', L_BRACKET, '--configuration', JSON.stringify(CONFIG), '--quantity', String(quantity));
      const viaHttp = await http('/v1/quotes', fileForm(readFileSync(L_BRACKET), { request: JSON.stringify({ quantity, configuration: CONFIG }) }));
      assert.equal(viaHttp.status, 422);
      assert.equal(viaCli.exit, 2);
      assert.equal(viaCli.code, 'parameter_invalid');
      assert.equal(viaHttp.error.code, viaCli.code);
      // the API names the field inside its multipart `request` part; the CLI names its --quantity
      assert.equal(viaHttp.error.param, 'request.quantity');
      assert.equal(viaHttp.error.message, viaCli.message.replace("'quantity'", "'request.quantity'"));
      assert.match(viaCli.message, /quantity.*>= 1/);
    });
  }

  it('an unknown ship_to field is an unknown-field error from kerf quote and POST /v1/quotes', async () => {
    const ship_to = { country: 'US', postal_code: '94107', zip: '94107' };
    const viaCli = cli('quote', L_BRACKET, '--configuration', JSON.stringify(CONFIG), '--quantity', '1', '--ship-to', JSON.stringify(ship_to));
    const viaHttp = await http('/v1/quotes', fileForm(readFileSync(L_BRACKET), { request: JSON.stringify({ quantity: 1, configuration: CONFIG, ship_to }) }));
    assert.equal(viaCli.code, 'parameter_unknown');
    assert.equal(viaHttp.error.code, 'parameter_unknown');
    assert.match(viaCli.message, /ship_to\.zip/);
    assert.equal(viaHttp.error.param, 'request.ship_to.zip');
  });

  it('a K-factor out of range: the library names kFactor, the CLI --k-factor; same code and range', async () => {
    const lib = await library(readFileSync(L_BRACKET), { kFactor: 0.9 });
    const viaCli = cli('analyze', L_BRACKET, '--k-factor', '0.9');
    assert.equal(lib.code, 'invalid_configuration');
    assert.equal(viaCli.code, lib.code);
    assert.equal(viaCli.exit, 2, 'a usage error: nothing was analysed');
    assert.equal(viaCli.message, lib.message.replace('kFactor', '--k-factor'));
    assert.match(viaCli.message, /^--k-factor must be a number in \(0, 0\.5\]/);
  });

  it('a value outside a list of choices names the choices (kind=, view=, format=)', async () => {
    const get = async (path: string): Promise<Refusal & { param: string }> =>
      ((await (await fetch(t.url + path, { headers: { authorization: `Bearer ${t.keyA}` } })).json()) as { error: Refusal & { param: string } }).error;
    const kind = await get('/v1/dfm/dfm_x/parts/prt_x/file?kind=dxf');
    assert.equal(kind.code, 'parameter_invalid');
    assert.equal(kind.param, 'kind');
    assert.match(kind.message, /^Invalid 'kind': must be one of production_\w+(, \w+)+\.$/);
    const view = await get('/v1/designs/des_x/image?view=side');
    assert.match(view.message, /must be one of iso, top, bottom, front, back, left, right, flat\./);
  });

  it('413 names the upload limit; 415 says to send multipart with a `file` part', async () => {
    const big = await http('/v1/analyze', fileForm(new Uint8Array(UPLOAD_LIMIT + 1024)));
    assert.equal(big.status, 413);
    assert.equal(big.error.code, 'file_too_large');
    assert.match(big.error.message, /256 KiB \(262144 bytes\)/);
    const json = await fetch(t.url + '/v1/dfm', { method: 'POST', body: JSON.stringify({ design_id: 'x'.repeat(1024 * 1024) }), headers: { authorization: `Bearer ${t.keyA}`, 'content-type': 'application/json' } });
    assert.equal(json.status, 413);
    assert.match(((await json.json()) as { error: Refusal }).error.message, /request body is larger than the limit of 1 MiB \(1048576 bytes\)/);
    const r = await fetch(t.url + '/v1/analyze', { method: 'POST', body: 'ISO-10303-21;', headers: { authorization: `Bearer ${t.keyA}`, 'content-type': 'application/step' } });
    assert.equal(r.status, 415);
    const e = ((await r.json()) as { error: Refusal }).error;
    assert.equal(e.code, 'unsupported_media_type');
    assert.match(e.message, /multipart\/form-data.*`file`/);
  });
});
