// The press-brake step pictures served with the DFM images: each step of a bent part's sequence
// carries `image_url`, a 307 to a signed SVG of the part on the die under the punch; bad steps and
// parts without a sequence get precise 4xx, another account gets 404. Fastify on a port, the
// embedded store on disk, API keys; responses checked against the OpenAPI document.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, stepForm } from './helpers/client.ts';

const HAT = new URL('../fixtures/sheet/hat_t2_r2.4.step', import.meta.url).pathname;
const PLATE = new URL('../../shared/corpus/real/ender3-e-plate.step', import.meta.url).pathname;

describe('bend-step pictures over REST', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  before(async () => {
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    ({ a, b } = await clientsFor(t));
  });
  after(async () => { await t?.close(); });

  it('lists each step\'s picture in the report and serves it as a signed SVG', { timeout: 240_000 }, async () => {
    const d = (await a.post('/v1/analyze', { form: stepForm(HAT), headers: { prefer: 'wait=60' } })).body;
    assert.equal(d.status, 'ready');
    const r = await a.post('/v1/dfm', { json: { design_id: d.id, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } }, generate_production_files: false } });
    assert.equal(r.status, 201, r.text);
    const part = r.body.parts[0];
    const plan = part.bend_plan;
    assert.equal(plan.status, 'found', JSON.stringify(plan));
    assert.equal(plan.sequence.length, 4);
    const base = `${t.url}/v1/dfm/${r.body.id}/parts/${part.part_id}/bend-steps`;
    assert.deepEqual(plan.sequence.map((s: { image_url: string }) => s.image_url), [1, 2, 3, 4].map((n) => `${base}/${n}/image`));
    // the same URLs when the report is read again
    const again = await a.get(`/v1/dfm/${r.body.id}`);
    assert.deepEqual(again.body.parts[0].bend_plan.sequence.map((s: { image_url: string }) => s.image_url), plan.sequence.map((s: { image_url: string }) => s.image_url));

    const svgs: string[] = [];
    for (const s of plan.sequence) {
      const img = await a.download(new URL(s.image_url).pathname);
      assert.equal(img.status, 200);
      assert.equal(img.contentType, 'image/svg+xml');
      assert.match(img.location, new RegExp(`^${t.url}/v1/downloads/`), 'a signed download');
      const svg = Buffer.from(img.bytes).toString('utf8');
      assert.ok(svg.startsWith('<svg') && svg.includes('class="punch"') && svg.includes('class="die"') && svg.includes('class="part"'), svg.slice(0, 200));
      assert.ok(svg.includes(`Step ${s.step}: bend ${s.bend_id},`), `step ${s.step} draws bend ${s.bend_id}`);
      svgs.push(svg);
    }
    assert.equal(new Set(svgs).size, 4, 'four different pictures');
    // kept: served again, the same bytes
    const second = await a.download(new URL(plan.sequence[2].image_url).pathname);
    assert.equal(Buffer.from(second.bytes).toString('utf8'), svgs[2]);

    // a step past the sequence, a step that is not a positive integer, an unknown part, another account
    const past = await a.get(`${new URL(base).pathname}/5/image`);
    assert.equal(past.status, 404);
    assert.equal(past.body.error.code, 'file_unavailable');
    assert.equal(past.body.error.param, 'step');
    for (const bad of ['0', 'x', '1.5']) {
      const res = await a.get(`${new URL(base).pathname}/${bad}/image`);
      assert.ok(res.status === 400 || res.status === 422, `step ${bad}: ${res.status}`);
      assert.equal(res.body.error.param, 'step', `step ${bad}`);
    }
    const unknown = await a.get(`/v1/dfm/${r.body.id}/parts/prt_nope/bend-steps/1/image`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.param, 'part_id');
    const other = await b.get(`${new URL(base).pathname}/1/image`);
    assert.equal(other.status, 404);
    assert.equal(other.body.error.param, 'dfm_id');
  });

  it('a flat part has no bend plan: its step pictures are refused as unavailable', { timeout: 240_000 }, async () => {
    const d = (await a.post('/v1/analyze', { form: stepForm(PLATE), headers: { prefer: 'wait=60' } })).body;
    const r = await a.post('/v1/dfm', { json: { design_id: d.id, configuration: { defaults: { material_id: 'mat_5052_h32_2_0mm' } }, generate_production_files: false } });
    const part = r.body.parts[0];
    assert.ok(!part.bend_plan || part.bend_plan.status !== 'found');
    const res = await a.get(`/v1/dfm/${r.body.id}/parts/${part.part_id}/bend-steps/1/image`);
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'file_unavailable');
    assert.equal(res.body.error.param, 'part_id');
  });
});
