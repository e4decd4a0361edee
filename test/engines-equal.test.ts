// The service's two engines (worker pool, default; in-process, KERF_ENGINE=inprocess) give the same
// designs and the same design files: what a customer gets does not depend on where the work ran.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LocalEngine, PoolEngine } from '@kerf/service';
import { fixtureBytes } from './helpers/fixtures.ts';
import type { Design } from '@kerf/engine';

const fixture = (rel: string): Uint8Array => fixtureBytes(new URL(`../fixtures/${rel}`, import.meta.url).pathname);

// Every design file, a part's source STEP included (written by engine/src/files/occt-exact.ts with a
// fixed FILE_NAME time stamp and the part's name as its PRODUCT), is compared byte for byte.
function sameFileBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

describe('pool engine = in-process engine', () => {
  let pool: PoolEngine;
  const local = new LocalEngine();
  before(() => { pool = new PoolEngine({ threads: 1, timeoutMs: 120_000, maxMemoryMb: 2048 }); });
  after(async () => { await pool.close(); });

  for (const rel of ['sheet/offset_t1.5_r2_45.step', 'assembly/asm_brackets_mirror.step']) {
    it(`analysis of ${rel}: same parts, with flange lengths`, async () => {
      const bytes = fixture(rel);
      const [p, l] = await Promise.all([pool.analyze(bytes, { fileName: 'x.step' }), local.analyze(bytes, { fileName: 'x.step' })]);
      assert.deepEqual(p, l);
      assert.ok(p.parts.some((part) => part.bends.some((b) => Array.isArray(b.flange_lengths_mm))), 'bends carry flange lengths');
    });
  }

  it('per-part K-factors: same flats either way', async () => {
    const bytes = fixture('assembly/asm_brackets_mirror.step');
    const first = await local.analyze(bytes, { fileName: 'x.step' });
    const kFactorByPart = { [first.parts[0].id]: 0.33 };
    const [p, l] = await Promise.all([pool.analyze(bytes, { fileName: 'x.step', kFactorByPart }), local.analyze(bytes, { fileName: 'x.step', kFactorByPart })]);
    assert.deepEqual(p, l);
    assert.equal(p.parts[0].flat_pattern?.k_factor, 0.33);
  });

  it('design files of an assembly: same bytes either way', async () => {
    const bytes = fixture('assembly/asm_brackets_mirror.step');
    const out = await local.analyze(bytes, { fileName: 'asm.step' });
    const design = { id: 'des_x', object: 'design', status: 'ready', name: 'asm.step', ...out } as unknown as Design;
    for (const name of ['model.glb', 'image-iso-400.svg', `parts/${out.parts[0].id}/source.step`]) {
      const [p, l] = await Promise.all([pool.designFile({ design, source: bytes, name }), local.designFile({ design, source: bytes, name })]);
      assert.ok(p && l, name);
      assert.equal(p.name, l.name, name);
      assert.equal(p.contentType, l.contentType, name);
      assert.ok(sameFileBytes(p.bytes, l.bytes), `${name}: same bytes`);
    }
    assert.equal(await pool.designFile({ design, source: bytes, name: 'parts/prt_nope/source.step' }), null);
  });

  it('DFM images (a finding on a hole near the bend): same SVG and PNG either way, the PNG rendered in a worker thread', async () => {
    const bytes = fixture('sheet/l_t2_holes_near_bend.step');
    const out = await local.analyze(bytes, { fileName: 'l.step' });
    const design = { id: 'des_x', object: 'design', status: 'ready', name: 'l.step', ...out } as unknown as Design;
    const part = out.parts[0];
    const issues = [{ code: 'hole_too_close_to_bend', message: 'Hole 1 is close to bend 1.', severity: 'warning' as const, accepted: false, hole_id: part.holes[0].id, bend_id: part.bends[0].id }];
    for (const format of ['svg', 'png'] as const) {
      const input = { design, source: bytes, part_id: part.id, view: 'flat' as const, format, width: 400, issues, configuration: null, k_factor: null };
      const [p, l] = await Promise.all([pool.dfmImage(input), local.dfmImage(input)]);
      assert.ok(p && l, format);
      assert.equal(p.contentType, l.contentType, format);
      assert.ok(Buffer.from(p.bytes).equals(Buffer.from(l.bytes)), `${format}: same bytes`);
    }
    assert.equal(await pool.dfmImage({ design, source: bytes, part_id: 'prt_nope', view: 'flat', format: 'svg', width: 400, issues: [], configuration: null, k_factor: null }), null);
  });
});
