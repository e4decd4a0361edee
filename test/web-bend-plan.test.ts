// The web quote page shows each bent part's press-brake plan (the DFM report's bend_plan): the bend
// table in the brake's order, with punch, die, force and back gauge. Driven with fetch against
// fastify on a port and the embedded store on disk; a hat section, whose order matters.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { fixtureBytes } from './helpers/fixtures.ts';
import { until } from './helpers/wait.ts';
import { webSession } from './helpers/web-session.ts';

const HAT = new URL('../fixtures/sheet/hat_t2_r2.4.step', import.meta.url).pathname;

describe('web quote page: the bend plan', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' }); });
  after(async () => { await t?.close(); });

  it('lists the hat section\'s bends in the order the brake makes them, with their tools', { timeout: 240_000 }, async () => {
    const { cookie, csrf } = await webSession(t);
    const form = new FormData();
    form.append('_csrf', csrf);
    form.append('file', new Blob([fixtureBytes(HAT)]), 'hat.step');
    let r = await fetch(`${t.url}/designs`, { method: 'POST', headers: { cookie }, body: form, redirect: 'manual' });
    assert.equal(r.status, 303);
    const designId = decodeURIComponent(r.headers.get('location')!.split('/').pop()!);
    await until(`design ${designId} analysed`, async () => (await t.service.store.jobs.listForResource(designId)).every((j) => j.status === 'done'), 120_000);
    const designPage = await (await fetch(`${t.url}/designs/${designId}`, { headers: { cookie } })).text();
    const select = /<select[^>]*name="(material_id\.[^"]+)"[^>]*>([\s\S]*?)<\/select>/.exec(designPage);
    assert.ok(select, 'the design page offers materials');
    const steel = [...select[2].matchAll(/<option value="([^"]+)"[^>]*>([^<]*)<\/option>/g)].find((o) => /mild|steel/i.test(o[2]) && !/stainless/i.test(o[2]));
    assert.ok(steel, `a mild steel of the part's thickness: ${select[2]}`);
    const body = new URLSearchParams({ _csrf: /name="_csrf" value="([^"]+)"/.exec(designPage)![1], [select[1]]: steel[1], quantity: '1' });
    r = await fetch(`${t.url}/designs/${designId}/quote`, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
    assert.equal(r.status, 303, await r.text());
    const page = await (await fetch(new URL(r.headers.get('location')!, t.url), { headers: { cookie } })).text();
    const section = /<section id="bend-plans">([\s\S]*?)<\/section>/.exec(page);
    assert.ok(section, 'the quote page has a bend-plan section');
    const rows = [...section[1].matchAll(/<tr><td>(\d+)<\/td><td>(\d+)<\/td><td>([^<]*)<\/td><td>(up|down)<\/td><td>(top|bottom)<\/td><td>(left|right)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)];
    assert.deepEqual(rows.map((x) => Number(x[1])), [1, 2, 3, 4], 'one row per step');
    assert.deepEqual(rows.map((x) => Number(x[2])).sort(), [1, 2, 3, 4], 'each bend once');
    assert.deepEqual(rows.slice(0, 2).map((x) => Number(x[2])), [1, 4], 'the brims first');
    assert.match(rows[3][7], /^pun_gooseneck_88 \(\d+(\.\d)? mm\)$/, `the last wall on the gooseneck: ${rows.map((x) => x.slice(2).join(' | ')).join('\n')}`);
    // beside the table, a picture of each step: the part on the die under the punch (an SVG from the engine)
    const steps = [...section[1].matchAll(/<figure class="bend-step"><img src="data:image\/svg\+xml;base64,([^"]+)" alt="([^"]*)"/g)];
    assert.equal(steps.length, 4, 'one picture per step');
    steps.forEach((m, i) => {
      const svg = Buffer.from(m[1], 'base64').toString();
      assert.match(m[2], new RegExp(`step ${i + 1}: the part on the die`));
      assert.ok(svg.startsWith('<svg') && svg.includes('class="punch"') && svg.includes('class="die"') && svg.includes('class="part"'), svg.slice(0, 200));
      assert.ok(svg.includes(`Step ${i + 1}: bend ${rows[i][2]},`), `step ${i + 1} draws bend ${rows[i][2]}`);
    });
    for (const x of rows) {
      assert.match(x[3], /^\d+(\.\d)?°$/);
      assert.match(x[8], /^die_v\d+_\d+$/);
      assert.match(x[9], /^\d+(\.\d)? kN$/);
    }
  });
});
