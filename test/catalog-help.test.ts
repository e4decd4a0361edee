// Catalog help (#19.7): a misspelled material id gets "did you mean", a thickness mismatch names the
// materials of the part's thickness, and /v1/materials filters by thickness_mm and material.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { thicknessTolerance } from '@kerf/engine';
import { startTestService, type TestService } from './helpers/service.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Issue { code: string; message: string; details: Record<string, unknown> }

function dfmIssues(materialId: string): Issue[] {
  const r = spawnSync(process.execPath, ['bin/kerf.mjs', 'dfm', 'fixtures/sheet/l_t2_r2.step', '--compact', '--configuration', JSON.stringify({ defaults: { material_id: materialId } })], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { parts: Array<{ issues: Issue[] }> }).parts.flatMap((p) => p.issues);
}

/** The error `kerf dfm` exits 2 with for a configuration naming an id no catalog has. */
function cliError(materialId: string): { code: string; message: string; param?: string } {
  const r = spawnSync(process.execPath, ['bin/kerf.mjs', 'dfm', 'fixtures/sheet/l_t2_r2.step', '--configuration', JSON.stringify({ defaults: { material_id: materialId } })], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stdout, '');
  return (JSON.parse(r.stderr.split('\n')[0]) as { error: { code: string; message: string; param?: string } }).error;
}

describe('catalog help in DFM messages', () => {
  it('a misspelled material id: exit 2 naming the field, with the closest ids (kerf dfm)', () => {
    const typo = cliError('mat_mild_steel_2mm');
    assert.equal(typo.code, 'invalid_material_id');
    assert.equal(typo.param, 'configuration.defaults.material_id');
    assert.match(typo.message, /Did you mean .*mat_mild_steel_2_0mm/);
    const wild = cliError('unobtainium');
    assert.equal(wild.code, 'invalid_material_id');
    assert.doesNotMatch(wild.message, /Did you mean/, 'nothing close: no misleading guess');
  });

  it('thickness_mismatch lists the catalog materials of the detected thickness, the same type first', () => {
    const issue = dfmIssues('mat_mild_steel_3_0mm').find((i) => i.code === 'thickness_mismatch');
    assert.ok(issue);
    const ids = issue.details.matching_material_ids as string[];
    assert.ok(ids.includes('mat_mild_steel_2_0mm') && ids.includes('mat_304_2_0mm'), ids.join());
    assert.ok(!ids.some((id) => id.endsWith('_3_0mm')));
    assert.match(ids[0], /^mat_mild_steel_/);
    assert.match(issue.message, /Materials of that thickness: mat_mild_steel_/);
  });
});

describe('GET /v1/materials filters', () => {
  let t: TestService;
  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const r = await fetch(t.url + path, { headers: { authorization: `Bearer ${t.keyA}` } });
    return { status: r.status, body: await r.json() };
  };
  before(async () => { t = await startTestService(); });
  after(async () => { await t.close(); });

  it('thickness_mm keeps the materials within the DFM thickness tolerance', async () => {
    const r = await get('/v1/materials?thickness_mm=2&limit=500');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const data = r.body.data as Array<{ id: string; thickness_mm: number; type: string }>;
    assert.ok(data.some((m) => m.id === 'mat_mild_steel_2_0mm'));
    assert.ok(data.some((m) => m.id === 'mat_mild_steel_0_075in'), '1.905 mm is within tolerance of 2 mm');
    for (const m of data) assert.ok(Math.abs(m.thickness_mm - 2) <= thicknessTolerance(m.thickness_mm), m.id);
    const all = (await get('/v1/materials?limit=500')).body.data as unknown[];
    assert.ok(data.length < all.length);
  });

  it('material matches the type id or words of the name; both filters combine', async () => {
    const steel = (await get('/v1/materials?material=mild_steel&limit=500')).body.data as Array<{ type: string }>;
    assert.ok(steel.length > 0);
    assert.ok(steel.every((m) => m.type === 'mild_steel'));
    const r = await get('/v1/materials?material=5052&thickness_mm=2');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.map((m: { id: string }) => m.id).sort(), ['mat_5052_h32_0_080in', 'mat_5052_h32_2_0mm']);
  });

  it('the filters belong to materials: elsewhere an unknown parameter; a bad thickness is invalid', async () => {
    const finishes = await get('/v1/finishes?thickness_mm=2');
    assert.equal(finishes.body.error.code, 'parameter_unknown');
    assert.equal(finishes.body.error.param, 'thickness_mm');
    const bad = await get('/v1/materials?thickness_mm=-1');
    assert.equal(bad.body.error.code, 'parameter_invalid');
  });
});
