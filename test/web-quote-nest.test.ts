// The nest picture on the web quote page (issue 36, docs/nesting.md "Files"): a person quotes an
// L-bracket at quantity 10 on the web site (fetch, no browser); the quote page shows its material's
// nest: the utilisation its line items carry and the sheet drawn inline with all ten flats placed,
// under the site's Content-Security-Policy (no inline style or script in the picture).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { webSession } from './helpers/web-session.ts';
import { fixtureBytes } from './helpers/fixtures.ts';
import { until } from './helpers/wait.ts';
import { ezdxfRead } from './helpers/ezdxf.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const STEEL_2MM = 'mat_mild_steel_2_0mm';
const QUANTITY = 10;

describe('web quote page: the sheet nest the material is priced from', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' }); });
  after(async () => { await t?.close(); });

  it('shows the material, its utilisation and each sheet with every flat placed', { timeout: 240_000 }, async () => {
    const { cookie, csrf } = await webSession(t);
    const form = new FormData();
    form.append('_csrf', csrf);
    form.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'l-bracket.step');
    let r = await fetch(`${t.url}/designs`, { method: 'POST', headers: { cookie }, body: form, redirect: 'manual' });
    assert.equal(r.status, 303, await r.text());
    const designId = decodeURIComponent(r.headers.get('location')!.split('/').pop()!);
    await until(`design ${designId} analysed`, async () => (await t.service.store.jobs.listForResource(designId)).every((j) => j.status === 'done'), 120_000);
    const designPage = await (await fetch(`${t.url}/designs/${designId}`, { headers: { cookie } })).text();
    const partId = /name="material_id\.([^"]+)"/.exec(designPage)?.[1];
    assert.ok(partId, 'the design page offers the part a material');

    const body = new URLSearchParams({ _csrf: csrf, quantity: String(QUANTITY), [`material_id.${partId}`]: STEEL_2MM });
    r = await fetch(`${t.url}/designs/${designId}/quote`, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
    assert.equal(r.status, 303, await r.text());
    const quotePath = r.headers.get('location')!;
    const quoteId = decodeURIComponent(quotePath.split('/').pop()!);
    r = await fetch(`${t.url}${quotePath}`, { headers: { cookie } });
    assert.equal(r.status, 200);
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.ok(csp && !csp.includes('unsafe-inline'), csp);
    const page = await r.text();

    const section = /<section id="nest">([\s\S]*?)<\/section>/.exec(page)?.[1];
    assert.ok(section, 'the quote page has a nest section');
    // the utilisation shown is the one the quote's line items carry
    const [job] = await t.service.store.jobs.listForResource(designId);
    const rec = await t.service.store.quotes.get(job.accountId, quoteId);
    const line = (rec!.data.items[0].line_items as any[]).find((l) => l.part_id);
    assert.ok(line.nest, 'the line is priced from a nest');
    assert.match(section, new RegExp(`data-material-id="${STEEL_2MM}"`));
    assert.match(section, new RegExp(`Utilisation ${Math.round(line.nest.utilization * 1000) / 10} %`));
    const svgs = section.match(/<svg [\s\S]*?<\/svg>/g) ?? [];
    assert.ok(svgs.length >= 1, 'a sheet is drawn');
    assert.ok(svgs.every((s) => /^<svg role="img" aria-label="Sheet \d+ of \d+ of /.test(s)), 'each picture is an image with a name');
    const placed = svgs.reduce((a, s) => a + (s.match(/<path /g) ?? []).length, 0);
    assert.equal(placed, QUANTITY, 'every piece of the quantity is placed on the sheets drawn');
    // nothing the CSP would refuse: no inline style, script or event handler
    assert.ok(svgs.every((s) => !/style=|<script|\son\w+=/i.test(s)));

    // the shop's files of each sheet: signed download links, the DXF read back by ezdxf with a clean audit
    const unescape = (h: string): string => h.replace(/&amp;/g, '&');
    const dxfLinks = [...section.matchAll(/class="nest-dxf" href="([^"]+)"/g)].map((m) => unescape(m[1]));
    const svgLinks = [...section.matchAll(/class="nest-svg" href="([^"]+)"/g)].map((m) => unescape(m[1]));
    assert.equal(dxfLinks.length, svgs.length, 'a DXF per sheet drawn');
    assert.equal(svgLinks.length, svgs.length, 'an SVG per sheet drawn');
    // the link is the credential: no cookie sent
    const svgFile = await fetch(new URL(svgLinks[0], t.url));
    assert.equal(svgFile.status, 200);
    assert.match(svgFile.headers.get('content-type') ?? '', /image\/svg\+xml/);
    assert.equal(await svgFile.text(), svgs[0]!.replace(/^<svg role="img" aria-label="[^"]*" /, '<svg '));
    const dxf = await fetch(new URL(dxfLinks[0], t.url));
    assert.equal(dxf.status, 200);
    const text = await dxf.text();
    assert.match(text, /\$INSUNITS/);
    const got = ezdxfRead(text);
    assert.ok(got, 'python3-ezdxf reads the DXF (apt-get install python3-ezdxf; .ci/run installs it)');
    assert.equal(got.errors, 0, 'ezdxf audit');
    assert.equal(got.layers.SHEET, 1);
    assert.equal(got.layers.PART_IDS, (svgs[0]!.match(/<path /g) ?? []).length, 'a part id per piece on the first sheet');
  });
});
