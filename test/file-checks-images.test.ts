// `kerf dfm --images` / `kerf quote --images` (checkFile, quoteFile): every part's inline SVG comes
// from one analysis of the file, not one per part, and is the same image the per-part DFM image
// (the one GET /v1/dfm/{id}/parts/{part_id}/image serves) draws from an analysis of its own.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LocalEngine, PoolEngine } from '@kerf/service';
import { restLinks } from '@kerf/rest/links';
import { checkFile, localCaller, quoteFile, type EngineContext } from '@kerf/usecases';
import { fixtureBytes } from './helpers/fixtures.ts';

const FILE = 'asm_brackets_mirror.step';
const bytes = fixtureBytes(new URL(`../fixtures/assembly/${FILE}`, import.meta.url).pathname);
const NOW = new Date('2026-11-23T15:00:00.000Z');

describe('DFM images of a file at hand', () => {
  let pool: PoolEngine;
  const local = new LocalEngine();
  before(() => { pool = new PoolEngine({ threads: 1, timeoutMs: 120_000, maxMemoryMb: 2048 }); });
  after(async () => { await pool.close(); });

  const context = (engine: PoolEngine | LocalEngine): EngineContext => {
    let n = 0;
    return { engine, links: restLinks(''), log: { info() {}, warn() {}, error() {} }, now: () => NOW, newId: (prefix) => `${prefix}_${String(++n).padStart(24, '0')}` };
  };
  /** Engine jobs a run cost in the pool (each job imports the file once). */
  const jobsOf = async (run: () => Promise<unknown>): Promise<number> => {
    const before = pool.stats().completed;
    await run();
    return pool.stats().completed - before;
  };

  it('kerf dfm --images: one analysis draws every part of an assembly, each with its own K-factor, the same SVG as its own image', async () => {
    const { parts } = await local.analyze(bytes, { fileName: FILE });
    assert.ok(parts.length >= 3, 'a multi-part assembly');
    // one bracket in 304: its flat (and so its image) uses another K-factor than the other's
    const configuration = { defaults: { material_id: 'mat_mild_steel_2_0mm' }, parts: [{ part_id: parts[1].id, material_id: 'mat_304_2_0mm' }] };
    const input = { file_name: FILE, bytes, configuration };
    const plain = await jobsOf(() => checkFile(context(pool), localCaller(), input));
    let report: Awaited<ReturnType<typeof checkFile>> | undefined;
    const imaged = await jobsOf(async () => { report = await checkFile(context(pool), localCaller(), { ...input, images: true }); });
    assert.equal(imaged - plain, 1, 'the images of all parts cost one engine job (one import), not one per part');
    assert.equal(report!.parts.length, parts.length);
    assert.ok(new Set(report!.parts.map((p) => p.k_factor)).size > 1, 'the parts were flattened with different K-factors');
    const design = { id: 'des_x', object: 'design', status: 'ready', name: FILE, ...(await local.analyze(bytes, { fileName: FILE })) } as unknown as Parameters<LocalEngine['dfmImage']>[0]['design'];
    for (const p of report!.parts) {
      const own = await local.dfmImage({ design, source: bytes, part_id: p.part_id, view: 'flat', format: 'svg', width: 800, issues: p.issues, configuration, k_factor: p.k_factor });
      assert.ok(own && p.image_svg, p.part_id);
      assert.equal(p.image_svg, new TextDecoder().decode(own.bytes), `${p.part_id}: the same SVG as the part's own DFM image`);
    }
  });

  it('kerf quote --images: the item\'s report draws every part from one analysis too', async () => {
    const input = { file_name: FILE, bytes, request: { quantity: 2, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } } };
    const plain = await jobsOf(() => quoteFile(context(pool), localCaller(), input));
    let quote: Awaited<ReturnType<typeof quoteFile>> | undefined;
    const imaged = await jobsOf(async () => { quote = await quoteFile(context(pool), localCaller(), { ...input, images: true }); });
    assert.equal(imaged - plain, 1, 'one engine job for the images of the item\'s parts');
    assert.ok(quote!.items[0].dfm.parts.length >= 3 && quote!.items[0].dfm.parts.every((p) => /<svg[ >]/.test(p.image_svg ?? '')), 'every part has its image');
  });

  it('several parts\' PNG images from one analysis: the same bytes in the pool as in-process, null for an unknown part', async () => {
    const out = await local.analyze(bytes, { fileName: FILE });
    const design = { id: 'des_x', object: 'design', status: 'ready', name: FILE, ...out } as unknown as Parameters<LocalEngine['dfmImages']>[0]['design'];
    const input = {
      design, source: bytes, view: 'flat' as const, format: 'png' as const, width: 400, configuration: null,
      parts: [...out.parts.map((p) => ({ part_id: p.id, issues: [], k_factor: null })), { part_id: 'prt_nope', issues: [], k_factor: null }],
    };
    const [p, l] = await Promise.all([pool.dfmImages(input), local.dfmImages(input)]);
    assert.equal(p.length, out.parts.length + 1);
    assert.equal(p.at(-1), null);
    assert.equal(l.at(-1), null);
    for (let i = 0; i < out.parts.length; i++) {
      assert.ok(p[i] && l[i], out.parts[i].id);
      assert.equal(p[i]!.name, 'dfm-flat.png');
      assert.ok(Buffer.from(p[i]!.bytes).equals(Buffer.from(l[i]!.bytes)), `${out.parts[i].id}: same PNG bytes`);
    }
  });
});
