// `kerf analyze` end to end through the real binary (bin/kerf.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import DxfParser from 'dxf-parser';

// dxf-parser's CommonJS build exports the class as module.exports.default under NodeNext typing
const Parser = ((DxfParser as unknown as { default?: unknown }).default ?? DxfParser) as new () => { parseSync(text: string): unknown };
const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (p: string): string => join(root, 'fixtures', p);

function kerf(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(root, 'bin/kerf.mjs'), 'analyze', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function errorLines(stderr: string): Array<{ code: string; message: string; file?: string }> {
  return stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { error: { code: string; message: string; file?: string } }).error);
}

test('one file: the design JSON on stdout, progress on stderr, exit 0', () => {
  const r = kerf(fixture('sheet/l_t2_r2.step'));
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1);
  const d = JSON.parse(lines[0]);
  assert.equal(d.object, 'design');
  assert.equal(d.status, 'ready');
  assert.equal(d.name, 'l_t2_r2.step');
  assert.match(r.stderr, /\[1\/1\]/);
});

test('several files: one JSON document per line, in order', () => {
  const r = kerf(fixture('sheet/l_t2_r2.step'), fixture('assembly/asm_brackets_mirror.step'), '--k-factor', '0.44');
  assert.equal(r.code, 0, r.stderr);
  const docs = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(docs.length, 2);
  assert.equal(docs[0].name, 'l_t2_r2.step');
  assert.deepEqual(docs[1].parts.map((p: { instance_count: number }) => p.instance_count), [3, 1, 2]);
  for (const d of docs) for (const p of d.parts) if (p.flat_pattern) assert.equal(p.flat_pattern.k_factor, 0.44);
});

test('--out writes both flat DXFs per sheet part; they read back in mm with closed contours', () => {
  const out = mkdtempSync(join(tmpdir(), 'kerf-cli-'));
  try {
    const r = kerf(fixture('sheet/l_t2_r2.step'), '--out', out);
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(r.stdout.trim());
    const sheetParts = d.parts.filter((p: { flat_pattern: unknown }) => p.flat_pattern);
    for (const p of d.parts) {
      const dxf = join(out, p.id, 'production_dxf.dxf');
      assert.equal(existsSync(dxf), Boolean(p.flat_pattern), `a flat DXF exactly for the parts with a flat: ${p.id}`);
    }
    for (const p of sheetParts) {
      for (const name of ['production_dxf.dxf', 'production_bend_lines_dxf.dxf']) {
        const text = readFileSync(join(out, p.id, name), 'utf8');
        const dxf = new Parser().parseSync(text) as { header: Record<string, unknown>; entities: Array<{ type: string; layer: string; shape?: boolean }> };
        assert.equal(dxf.header.$INSUNITS, 4, 'millimetres');
        assert.ok(dxf.entities.length > 0);
        const bendEntities = dxf.entities.filter((e) => e.layer.startsWith('BEND') && e.type === 'LINE');
        if (name === 'production_dxf.dxf') assert.equal(bendEntities.length, 0);
        else assert.equal(bendEntities.length, p.bend_count);
      }
    }
    assert.ok(sheetParts.length > 0 || readdirSync(out).every((id) => !existsSync(join(out, id, 'production_dxf.dxf'))));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('--out with several files names part folders by readable names: a Windows-1251 Cyrillic name stays Cyrillic', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-cli-'));
  try {
    const file = join(dir, 'Заклёпки.step');
    writeFileSync(file, readFileSync(fixture('names/asm_names.step')));
    const r = kerf(file, fixture('sheet/l_t2_r2.step'), '--out', join(dir, 'out'));
    assert.equal(r.code, 0, r.stderr);
    const index = JSON.parse(readFileSync(join(dir, 'out', 'index.json'), 'utf8')) as { data: Array<{ dir: string; parts: Array<{ name: string; dir: string }> }> };
    assert.equal(index.data[0].dir, 'Заклёпки');
    assert.deepEqual(index.data[0].parts.map((p) => [p.name, p.dir]).sort(), [
      ['Гайка клепальная М4', 'Заклёпки/Гайка_клепальная_М4'], ['Кронштейн» é', 'Заклёпки/Кронштейн__é'], ['Шайба ГОСТ 11371', 'Заклёпки/Шайба_ГОСТ_11371'],
    ].sort());
    for (const p of index.data[0].parts) assert.ok(existsSync(join(dir, 'out', p.dir)), p.dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('several files run in the worker pool: the same designs and files as one at a time in-process, printed in the order given', () => {
  const files = ['sheet/hat_t2_r2.4.step', 'tubes/round-32x2-l100.step', 'sheet/l_t2_r2.step'].map(fixture);
  const dir = mkdtempSync(join(tmpdir(), 'kerf-cli-'));
  const withoutClock = (line: string): unknown => { const d = JSON.parse(line); delete d.created_at; return d; };
  const listing = (out: string): string[] => readdirSync(out, { recursive: true }).map(String).sort();
  try {
    const pooled = kerf(...files, '--threads', '2', '--out', join(dir, 'pool'));
    assert.equal(pooled.code, 0, pooled.stderr);
    const lines = pooled.stdout.trim().split('\n');
    assert.equal(lines.length, 3);
    files.forEach((f, i) => {
      const single = kerf(f, '--out', join(dir, 'single'));
      assert.equal(single.code, 0, single.stderr);
      assert.deepEqual(withoutClock(lines[i]), withoutClock(single.stdout.trim()), `file ${i + 1} in the pool = in-process`);
    });
    // several files: DIR/<file stem>/<part name or id>/ and DIR/index.json; one file: DIR/<part id>/
    const index = JSON.parse(readFileSync(join(dir, 'pool', 'index.json'), 'utf8')) as { data: Array<{ file: string; dir: string; design_id: string; parts: Array<{ id: string; name: string; dir: string; files: string[] }> }> };
    assert.deepEqual(index.data.map((e) => e.file), files);
    assert.deepEqual(index.data.map((e) => e.dir), ['hat_t2_r2.4', 'round-32x2-l100', 'l_t2_r2']);
    const pooledFiles: string[] = [];
    index.data.forEach((e, i) => {
      const design = JSON.parse(lines[i]) as { id: string; parts: Array<{ id: string; name: string }> };
      assert.equal(e.design_id, design.id);
      assert.deepEqual(e.parts.map((p) => [p.id, p.name, p.dir]), design.parts.map((p) => [p.id, p.name, `${e.dir}/${p.name.replace(/[^A-Za-z0-9_.-]/g, '_')}`]));
      for (const p of e.parts) for (const f of p.files) {
        assert.ok(existsSync(join(dir, 'pool', f)), f);
        pooledFiles.push(`${p.id}/${f.split('/').pop()}`);
      }
    });
    assert.deepEqual(pooledFiles.sort(), listing(join(dir, 'single')).filter((f) => f.includes('.')).map((f) => f.split('\\').join('/')), 'the same production files');
    const dxf = (path: string): string => readFileSync(join(dir, path), 'utf8');
    const last = index.data[2].parts[0];
    assert.equal(dxf(join('pool', last.dir, 'production_dxf.dxf')), dxf(join('single', last.id, 'production_dxf.dxf')), 'byte-identical DXF from a worker and from this thread');
    const bad = kerf('--threads', '0', files[0]);
    assert.equal(bad.code, 2);
    assert.match(errorLines(bad.stderr)[0].message, /--threads must be a positive integer/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a reader that stops after the first design (| head -1) ends the run quietly, exit 0', async () => {
  const { spawn } = await import('node:child_process');
  const files = ['sheet/l_t2_r2.step', 'sheet/hat_t2_r2.4.step', 'tubes/round-32x2-l100.step', 'sheet/u_t2_tall_flanges.step'].map(fixture);
  const child = spawn(process.execPath, [join(root, 'bin/kerf.mjs'), 'analyze', ...files], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
  assert.equal(code, 0, err);
  assert.doesNotMatch(err, /EPIPE|Unhandled/);
});

test('bad input: a JSON error with the code on stderr and a non-zero exit; other files still analysed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-cli-'));
  try {
    const stl = join(dir, 'part.step');
    writeFileSync(stl, 'solid x\n facet normal 0 0 1\n outer loop\n vertex 0 0 0\n endloop\n endfacet\nendsolid x\n');
    const r = kerf(stl, fixture('sheet/l_t2_r2.step'), join(dir, 'missing.step'));
    assert.equal(r.code, 1);
    assert.equal(r.stdout.trim().split('\n').length, 1, 'the good file is still printed');
    const errors = errorLines(r.stderr);
    assert.deepEqual(errors.map((e) => e.code), ['invalid_step', 'file_not_found']);
    assert.match(errors[0].message, /STL/);
    const empty = join(dir, 'empty.step');
    writeFileSync(empty, '');
    const e = kerf(empty);
    assert.equal(e.code, 1);
    assert.equal(e.stdout, '');
    assert.equal(errorLines(e.stderr)[0].code, 'invalid_step');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('usage errors: no file, a bad K-factor, an unknown option', () => {
  for (const args of [[], ['--k-factor', 'abc', 'x.step'], ['--frobnicate', 'x.step'], ['x.step', '--out']]) {
    const r = kerf(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(errorLines(r.stderr)[0].code, 'invalid_arguments');
  }
  // out of the library's range: its code, named --k-factor, before any file is read
  const k = kerf(fixture('sheet/l_t2_r2.step'), '--k-factor', '0.8');
  assert.equal(k.code, 2);
  assert.match(errorLines(k.stderr)[0].message, /^--k-factor must be a number in/);
  assert.equal(errorLines(k.stderr)[0].code, 'invalid_configuration');
});

test('a file\'s time counts from when a thread takes it, not while it waits: one thread, three files, the times add up to no more than the whole run', () => {
  const files = ['sheet/l_t2_r2.step', 'sheet/hat_t2_r2.4.step', 'sheet/l_t2_r2.step'].map(fixture);
  const started = Date.now();
  const r = kerf(...files, '--threads', '1');
  const wall = Date.now() - started;
  assert.equal(r.code, 0, r.stderr);
  const times = [...r.stderr.matchAll(/^kerf analyze: \[\d\/3\] .* in (\d+) ms/gm)].map((m) => Number(m[1]));
  assert.equal(times.length, 3, r.stderr);
  // Counted from submission, the second file would include the first one's time and the third both:
  // together more than the run took. Each counted from its start, they are disjoint spans of the run.
  const sum = times.reduce((a, b) => a + b, 0);
  assert.ok(sum <= wall, `per-file times ${times.join(' + ')} = ${sum} ms exceed the run's ${wall} ms`);
});
