// Hostile input: each case a precise EngineError code, and the importer still healthy afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../src/contract.ts';
import { importStep } from '../src/import/index.ts';
import { analyze } from '../src/analyze.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const good = readFileSync(root + 'fixtures/sheet/l_t2_r2.step');
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

async function rejectsWith(bytes: Uint8Array, code: string, messagePart: RegExp): Promise<void> {
  await assert.rejects(importStep(bytes), (err: unknown) => {
    assert.ok(err instanceof EngineError, `expected EngineError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.match(err.message, messagePart);
    return true;
  });
  // still healthy: a good file imports right after
  const solids = await importStep(good);
  assert.equal(solids.length, 1);
}

function seeded(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; out[i] = x & 255; }
  return out;
}

const MINIMAL_HEADER = `ISO-10303-21;
HEADER;
FILE_DESCRIPTION(('empty'),'2;1');
FILE_NAME('empty.step','2026-01-01T00:00:00',(''),(''),'','','');
FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));
ENDSEC;
`;

test('empty file', () => rejectsWith(new Uint8Array(0), 'invalid_step', /empty/));

test('random bytes', () => rejectsWith(seeded(20000, 7), 'invalid_step', /not a STEP file/));

test('truncated STEP (first half of a real file)', () => rejectsWith(good.subarray(0, Math.floor(good.length / 2)), 'invalid_step', /truncated/));

test('corrupt STEP: a real part with a third of its entities overwritten', () => {
  const bytes = new Uint8Array(good);
  bytes.fill(0x78, Math.floor(bytes.length * 0.3), Math.floor(bytes.length * 0.6));
  return rejectsWith(bytes, 'invalid_step', /corrupt/);
});

test('corrupt STEP: the solid entity removed, its faces left dangling', () => {
  const text = new TextDecoder('latin1').decode(good).split('\n').filter((l) => !l.includes('CLOSED_SHELL')).join('\n');
  return rejectsWith(enc(text), 'invalid_step', /corrupt/);
});

test('ASCII STL renamed .step', () => rejectsWith(enc('solid cube\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid cube\n'), 'invalid_step', /STL/));

test('binary STL renamed .step', () => {
  const tri = 2;
  const bytes = new Uint8Array(84 + tri * 50);
  bytes.set(enc('binary stl header'), 0);
  new DataView(bytes.buffer).setUint32(80, tri, true);
  return rejectsWith(bytes, 'invalid_step', /binary STL/);
});

test('IGES renamed .step', () => {
  const line = (text: string, section: string, n: number): string => text.padEnd(72, ' ') + section + String(n).padStart(7, ' ');
  const iges = [line('IGES file written by a test', 'S', 1), line('1H,,1H;,4HTEST,8Htest.igs;', 'G', 1), line('', 'T', 1)].join('\n') + '\n';
  return rejectsWith(enc(iges), 'invalid_step', /IGES/);
});

test('valid STEP without any solid', () => rejectsWith(enc(`${MINIMAL_HEADER}DATA;\n#1=CARTESIAN_POINT('',(0.,0.,0.));\nENDSEC;\nEND-ISO-10303-21;\n`), 'empty_model', /no solid/));

test('STEP with a header only, no DATA section', () => rejectsWith(enc(`${MINIMAL_HEADER}END-ISO-10303-21;\n`), 'empty_model', /no solid/));

test('analyze() reports the same codes and a bad K-factor as invalid_configuration', async () => {
  await assert.rejects(analyze(new Uint8Array(0)), { code: 'invalid_step' });
  await assert.rejects(analyze(good, { kFactor: 0.9 }), { code: 'invalid_configuration' });
  await assert.rejects(analyze(good, { kFactor: Number.NaN }), { code: 'invalid_configuration' });
  const d = await analyze(good, { kFactor: 0.44 });
  assert.equal(d.status, 'ready');
});

test('mutated STEP files (bytes flipped, lines dropped, cut anywhere) never crash: a design or a coded EngineError', async () => {
  const codes = new Set(['invalid_step', 'empty_model', 'unsupported_geometry']);
  const text = new TextDecoder('latin1').decode(good);
  const lines = text.split('\n');
  let x = 12345;
  const rand = (n: number): number => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return (x >>> 0) % n; };
  const cases: Uint8Array[] = [];
  for (let i = 0; i < 8; i++) { const b = new Uint8Array(good); for (let k = 0; k < 20; k++) b[rand(b.length)] = rand(256); cases.push(b); }
  for (let i = 0; i < 8; i++) { const keep = lines.filter(() => rand(10) !== 0); cases.push(enc(keep.join('\n'))); }
  for (let i = 0; i < 4; i++) cases.push(good.subarray(0, rand(good.length)));
  for (const bytes of cases) {
    try {
      const d = await analyze(bytes);
      assert.equal(d.status, 'ready');
    } catch (err) {
      assert.ok(err instanceof EngineError, `not an EngineError: ${String(err)}`);
      assert.ok(codes.has(err.code), err.code);
    }
  }
  assert.equal((await importStep(good)).length, 1, 'still healthy');
});

test('a gzip-compressed STEP (.stpZ) is read; a ZIP archive and corrupt gzip get precise errors', async () => {
  const { gzipSync } = await import('node:zlib');
  const solids = await importStep(new Uint8Array(gzipSync(good)));
  assert.equal(solids.length, 1);
  const zip = new Uint8Array(200);
  zip.set([0x50, 0x4b, 0x03, 0x04]);
  await rejectsWith(zip, 'invalid_step', /ZIP archive/);
  const gz = new Uint8Array(gzipSync(good)).subarray(0, 100);
  await rejectsWith(gz, 'invalid_step', /gzip/);
});
