// Manufacturing facts over REST with the default (worker pool) engine: the minimum-flange rule fires,
// a fixed service clock gives fixed dates, and the flat of a configured material uses its K-factor.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, stepForm } from './helpers/client.ts';
import { materialFlatKey } from '@kerf/usecases/testing';
import type { PoolEngine } from '@kerf/service';

const fixture = (rel: string): string => new URL(`../fixtures/${rel}`, import.meta.url).pathname;
/** A Friday: the ship dates must skip the weekend. */
const FIXED_NOW = '2026-03-06T15:30:00.000Z';

async function analyzed(a: Client, rel: string): Promise<any> {
  const r = await a.post('/v1/analyze', { form: stepForm(fixture(rel)), headers: { prefer: 'wait=60' } });
  assert.ok([200, 202].includes(r.status), r.text);
  assert.equal(r.body.status, 'ready', r.text);
  return r.body;
}

describe('manufacturing facts over REST (pool engine)', () => {
  let t: TestService;
  let a: Client;
  before(async () => {
    t = await startTestService({}, { now: () => new Date(FIXED_NOW) });
    ({ a } = await clientsFor(t));
  });
  after(async () => { await t.close(); });

  it('the service runs the worker pool engine', () => {
    assert.equal(t.service.ctx.engine.constructor.name, 'PoolEngine');
  });

  it('a flange shorter than the die needs blocks the DFM report (flange_too_short)', async () => {
    // two opposite 45 degree bends 4 mm apart: the flange between them cannot sit on the die
    const d = await analyzed(a, 'sheet/offset_t1.5_r2_45.step');
    for (const b of d.parts[0].bends) assert.ok(Array.isArray(b.flange_lengths_mm), `bend ${b.id} has flange lengths`);
    const r = await a.post('/v1/dfm', { json: { design_id: d.id, configuration: { defaults: { material_id: 'mat_mild_steel_1_5mm' } } } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'blocked');
    const codes = r.body.parts[0].issues.map((i: { code: string }) => i.code);
    assert.ok(codes.includes('flange_too_short'), `issues: ${codes.join(', ')}`);
  });

  it('the injected clock dates reports and quotes, and the ship dates count business days from it', async () => {
    const d = await analyzed(a, 'sheet/l_t2_r2.step');
    const config = { defaults: { material_id: 'mat_mild_steel_2_0mm' } };
    const dfm = await a.post('/v1/dfm', { json: { design_id: d.id, configuration: config } });
    assert.equal(dfm.status, 201, dfm.text);
    assert.equal(dfm.body.created_at, FIXED_NOW);
    const q = await a.post('/v1/quotes', { json: { items: [{ design_id: d.id, quantity: 5, configuration: config }] } });
    assert.equal(q.status, 201, q.text);
    assert.equal(q.body.created_at, FIXED_NOW);
    assert.equal(q.body.expires_at, '2026-04-05T15:30:00.000Z');
    const standard = q.body.fulfillment.production.find((p: { speed: string }) => p.speed === 'standard');
    assert.ok(standard.production_days >= 3);
    // Friday + N business days: weekends skipped, counted from the fixed day
    const expected = new Date(Date.UTC(2026, 2, 6));
    for (let left = standard.production_days; left > 0;) {
      expected.setUTCDate(expected.getUTCDate() + 1);
      if (expected.getUTCDay() !== 0 && expected.getUTCDay() !== 6) left--;
    }
    assert.equal(standard.estimated_ship_date, expected.toISOString().slice(0, 10));
  });

  it('the flat of a configured material uses its K-factor: DFM, quote and their reports say which', async () => {
    const d = await analyzed(a, 'sheet/l_t2_r2.step');
    const stored = d.parts[0].flat_pattern;
    assert.ok(Math.abs(stored.k_factor - 0.42) < 1e-6, 'the stored design uses the default K for r/t 1');
    // mild steel 2 mm: K 0.38 at this r/t; 90 degrees, t 2: the flat is 0.04 * 2 * pi/2 mm shorter
    const config = { defaults: { material_id: 'mat_mild_steel_2_0mm' } };
    const expectedLength = stored.length_mm - (Math.PI / 2) * (stored.k_factor - 0.38) * 2;
    const dfm = await a.post('/v1/dfm', { json: { design_id: d.id, configuration: config } });
    assert.equal(dfm.status, 201, dfm.text);
    const part = dfm.body.parts[0];
    assert.equal(part.k_factor, 0.38);
    assert.equal(part.flat_pattern.k_factor, 0.38);
    assert.ok(Math.abs(part.flat_pattern.length_mm - expectedLength) < 1e-3, `flat ${part.flat_pattern.length_mm} vs ${expectedLength}`);
    // the re-analysis is kept per (design, K map) in the store
    assert.ok(await t.service.store.blobs.exists(materialFlatKey(d.id, { [part.part_id]: 0.38 })));
    // a material whose K is the default's: the stored flats are used as they are
    const same = await a.post('/v1/dfm', { json: { design_id: d.id, configuration: { defaults: { material_id: 'mat_5052_h32_2_0mm' } } } });
    assert.equal(same.status, 201, same.text);
    assert.deepEqual(same.body.parts[0].flat_pattern, stored);
    // a material of another thickness blocks the part: nothing is recomputed for it
    const thick = await a.post('/v1/dfm', { json: { design_id: d.id, configuration: { defaults: { material_id: 'mat_mild_steel_3_0mm' } } } });
    assert.equal(thick.status, 201, thick.text);
    assert.equal(thick.body.status, 'blocked');
    assert.deepEqual(thick.body.parts[0].flat_pattern, stored);
    // a quote with both materials for the same design: each item is checked and priced with its own flat
    const q = await a.post('/v1/quotes', { json: { items: [
      { design_id: d.id, quantity: 10, configuration: config },
      { design_id: d.id, quantity: 10, configuration: { defaults: { material_id: 'mat_5052_h32_2_0mm' } } },
    ] } });
    assert.equal(q.status, 201, q.text);
    assert.equal(q.body.items[0].design_id, d.id);
    assert.equal(q.body.items[1].design_id, d.id);
    assert.equal(q.body.items[0].dfm.design_id, d.id);
    assert.equal(q.body.items[0].dfm.parts[0].flat_pattern.k_factor, 0.38);
    assert.ok(Math.abs(q.body.items[1].dfm.parts[0].flat_pattern.k_factor - 0.42) < 1e-6);
    // the stored design itself is unchanged
    const again = await a.get(`/v1/designs/${d.id}`);
    assert.deepEqual(again.body.parts[0].flat_pattern, stored);
  });

  it('an assembly\'s model, image and a part\'s source STEP are made in the worker pool, once', async () => {
    const engine = t.service.ctx.engine as PoolEngine;
    const d = await analyzed(a, 'assembly/asm_brackets_mirror.step');
    assert.ok(d.parts.length > 1 || d.part_instances.length > 1, 'a multi-solid design');
    const ran = (): number => engine.stats().completed;
    const before = ran();
    const glb = await a.download(`/v1/designs/${d.id}/model`);
    assert.equal(Buffer.from(glb.bytes.subarray(0, 4)).toString('latin1'), 'glTF');
    assert.equal(ran(), before + 1, 'the design model came from a pool job');
    const img = await a.download(`/v1/designs/${d.id}/image?format=svg`);
    assert.match(Buffer.from(img.bytes).toString('utf8'), /<svg/);
    assert.equal(ran(), before + 2, 'the design image came from a pool job');
    const step = await a.download(`/v1/designs/${d.id}/parts/${d.parts[0].id}/step?view=source`);
    assert.match(Buffer.from(step.bytes.subarray(0, 20)).toString('latin1'), /^ISO-10303-21/);
    assert.equal(ran(), before + 3, 'the part source STEP came from a pool job');
    // kept: asking again makes nothing
    await a.download(`/v1/designs/${d.id}/model`);
    await a.download(`/v1/designs/${d.id}/parts/${d.parts[0].id}/step?view=source`);
    assert.equal(ran(), before + 3);
  });

  it('each part of an assembly gets the K-factor of its own material', async () => {
    const d = await analyzed(a, 'assembly/asm_brackets_mirror.step');
    const bent = d.parts.filter((p: any) => p.flat_pattern && p.bends.length > 0);
    assert.ok(bent.length >= 2, 'two bent parts');
    const t0 = bent[0].detected_thickness_mm;
    assert.ok(Math.abs(t0 - 2) < 0.05, `2 mm parts (got ${t0})`);
    const materials = ['mat_mild_steel_2_0mm', 'mat_304_2_0mm']; // K 0.38 and 0.40 at r/t 1
    const configuration = { parts: bent.map((p: any, i: number) => ({ part_id: p.id, material_id: materials[i % 2] })) };
    const r = await a.post('/v1/dfm', { json: { design_id: d.id, configuration } });
    assert.equal(r.status, 201, r.text);
    const byId = new Map(r.body.parts.map((p: any) => [p.part_id, p]));
    const used = bent.map((p: any) => (byId.get(p.id) as any).flat_pattern.k_factor);
    assert.deepEqual(used.slice(0, 2), [0.38, 0.4]);
    for (const p of bent) assert.equal((byId.get(p.id) as any).flat_pattern.k_factor, (byId.get(p.id) as any).k_factor);
  });
});
