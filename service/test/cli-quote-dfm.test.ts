// `kerf quote` and `kerf dfm` through the real binary (bin/kerf.mjs); moved here from
// engine/test/quote.test.ts, which tests quote() and dfm() themselves.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { analyze, defaultCatalog, partKFactor } from '@kerf/engine';

const catalog = defaultCatalog();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NOW = '2026-11-23T15:00:00.000Z';

describe('CLI', () => {
  const kerf = (args: string[]): { code: number; out: string; err: string } => {
    try {
      return { code: 0, out: execFileSync('node', ['bin/kerf.mjs', ...args], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }), err: '' };
    } catch (e) {
      const x = e as { status: number; stdout: string; stderr: string };
      return { code: x.status, out: x.stdout, err: x.stderr };
    }
  };
  test('kerf quote prints the quote with each item\'s full DFM report', () => {
    const r = kerf(['quote', 'fixtures/sheet/l_t2_r2.step', '--configuration', '{"defaults":{"material_id":"mat_mild_steel_2_0mm"}}', '--quantity', '4', '--quantity-options', '1,4,40', '--now', NOW]);
    assert.equal(r.code, 0, r.err);
    const q = JSON.parse(r.out);
    assert.equal(q.object, 'quote');
    assert.equal(q.status, 'ready');
    assert.equal(q.items[0].quantity, 4);
    assert.deepEqual(q.items[0].quantity_options.map((o: { quantity: number }) => o.quantity), [1, 4, 40]);
    assert.equal(q.items[0].dfm.object, 'dfm_report');
    const again = JSON.parse(kerf(['quote', 'fixtures/sheet/l_t2_r2.step', '--configuration', '{"defaults":{"material_id":"mat_mild_steel_2_0mm"}}', '--quantity', '4', '--quantity-options', '1,4,40', '--now', NOW]).out);
    assert.deepEqual(again, q, 'same input, same quote (ids included)');
  });
  test('kerf dfm --images: each part\'s inline SVG is the served DFM image, the findings on the real flat (a slot drawn as a slot)', () => {
    const r = kerf(['dfm', 'fixtures/sheet/plate_t6_small_holes_keyhole.step', '--configuration', '{"defaults":{"material_id":"mat_mild_steel_6_0mm"}}', '--images', '--now', NOW]);
    assert.equal(r.code, 0, r.err);
    const part = JSON.parse(r.out).parts[0];
    assert.ok(part.issues.some((i: { code: string }) => i.code === 'slot_too_small'), 'the 2 mm slot is a finding');
    assert.match(part.image_svg, /data-view="flat"/);
    assert.match(part.image_svg, /<path class="finding" data-code="slot_too_small"/);
    assert.match(part.image_svg, /class="legend"/);
  });
  test('kerf dfm: each part is checked with the flat of its own configured material\'s K-factor', async () => {
    // two mirrored L brackets (t 2, r 2) and a plate: one bracket in mild steel, the other in 304
    const rel = 'fixtures/assembly/asm_brackets_mirror.step';
    const plain = await analyze(new Uint8Array(readFileSync(`${ROOT}/${rel}`)), { fileName: rel, createdAt: NOW });
    const [steelPart, stainlessPart] = plain.parts.filter((p) => p.bends.length > 0);
    const material = (id: string) => catalog.materials.find((m) => m.id === id)!;
    const kSteel = partKFactor(steelPart, material('mat_mild_steel_2_0mm'))!;
    const kStainless = partKFactor(stainlessPart, material('mat_304_2_0mm'))!;
    assert.notEqual(kSteel, kStainless, 'the two materials bend with different K here');
    const configuration = { defaults: { material_id: 'mat_mild_steel_2_0mm' }, parts: [{ part_id: stainlessPart.id, material_id: 'mat_304_2_0mm' }] };
    const r = kerf(['dfm', rel, '--configuration', JSON.stringify(configuration), '--now', NOW]);
    assert.equal(r.code, 0, r.err);
    const byId = new Map((JSON.parse(r.out).parts as Array<{ part_id: string; k_factor: number; flat_pattern: { k_factor: number; length_mm: number } | null }>).map((p) => [p.part_id, p]));
    // the same flats an analysis with those K-factors per part gives
    const expected = await analyze(new Uint8Array(readFileSync(`${ROOT}/${rel}`)), { fileName: rel, kFactorByPart: { [steelPart.id]: kSteel, [stainlessPart.id]: kStainless } });
    for (const [part, k] of [[steelPart, kSteel], [stainlessPart, kStainless]] as const) {
      const got = byId.get(part.id)!;
      assert.equal(got.k_factor, k, part.id);
      assert.equal(got.flat_pattern?.k_factor, k, `${part.id}: flat at its material's K`);
      assert.equal(got.flat_pattern?.length_mm, expected.parts.find((p) => p.id === part.id)!.flat_pattern!.length_mm);
    }
    assert.notEqual(byId.get(steelPart.id)!.flat_pattern!.length_mm, byId.get(stainlessPart.id)!.flat_pattern!.length_mm, 'another K, another flat length');
  });
  test('kerf dfm prints the report; bad input is a JSON error with param and a non-zero exit', () => {
    const r = kerf(['dfm', 'fixtures/sheet/l_t2_r2.step', '--configuration', '{}']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).status, 'requires_input');
    const bad = kerf(['dfm', 'fixtures/sheet/l_t2_r2.step', '--configuration', '{"defaults":{"material_id":5}}']);
    assert.notEqual(bad.code, 0);
    assert.deepEqual(JSON.parse(bad.err.trim()).error.param, 'configuration.defaults.material_id');
    const notJson = kerf(['dfm', 'fixtures/sheet/l_t2_r2.step', '--configuration', '{defaults']);
    assert.equal(JSON.parse(notJson.err.trim()).error.code, 'invalid_configuration');
    const noQty = kerf(['quote', 'fixtures/sheet/l_t2_r2.step']);
    assert.equal(JSON.parse(noQty.err.trim()).error.param, 'quantity');
    const missing = kerf(['dfm', 'fixtures/nope.step', '--configuration', '{}']);
    assert.equal(JSON.parse(missing.err.trim()).error.code, 'file_not_found');
  });
});
