// The web site's configure form and the pages around it, in Debian's Chromium: a design of two
// thicknesses offers each part the materials of its own thickness; the quote page offers hole
// operations per group of holes as the DFM capabilities allow and keeps the choice; a tube part gets
// tube profiles of its own section; the account page replaces and removes the saved card; the review
// page (review_url) is in the site's layout and saves. Every page passes axe-core (no serious or
// critical violation) and every HTML page's Content-Security-Policy has no 'unsafe-inline'.
// Screenshots go to out/web-configure/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { axeViolations, launchBrowser, WEBGL_ARGS } from './helpers/browser.ts';

const TWO_THICKNESSES = new URL('../fixtures/assembly/asm_brackets_mirror.step', import.meta.url).pathname;
// a tube fixture: the corpus's support tube has a stepped outer wall, which no catalog tube is
const TUBE = new URL('../fixtures/tubes/round-50x3-l250-holes.step', import.meta.url).pathname;
const SHOTS = new URL('../out/web-configure/', import.meta.url).pathname;

describe('web site: configure per part, hole operations, tube profiles, saved card, review page', () => {
  let t: TestService;
  let browser: Browser;
  let page: Page;
  let apiKey = '';
  let designId = '';
  const cspErrors: string[] = [];
  /** every HTML page's CSP as served: url -> policy */
  const policies = new Map<string, string>();
  let step = 0;
  // a software-rendered 3D viewer is slow on a loaded machine: wait for every model before the picture
  const shot = async (name: string) => {
    await page.waitForFunction(() => [...document.querySelectorAll('model-viewer')].every((v: any) => v.loaded === true), null, { timeout: 120_000 });
    await page.screenshot({ path: `${SHOTS}${String(++step).padStart(2, '0')}-${name}.png`, fullPage: true, caret: 'initial', timeout: 120_000 });
  };
  const accessible = async (what: string) => assert.deepEqual(await axeViolations(page), [], `${what}: axe-core`);
  const api = async (path: string) => {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    return res.json() as Promise<any>;
  };
  const upload = async (file: string) => {
    await page.goto(`${t.url}/designs/new`);
    await page.setInputFiles('#file', file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/designs\/des_/);
    await page.locator('#configure-section').waitFor({ timeout: 180_000 });
    return new URL(page.url()).pathname.split('/').pop()!;
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    browser = await launchBrowser(WEBGL_ARGS);
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('console', (m) => { if (/Content.Security.Policy/i.test(m.text())) cspErrors.push(`${page.url()}: ${m.text()}`); });
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'document' || (res.status() >= 300 && res.status() < 400)) return; // a redirect is no page
      const csp = (await res.allHeaders())['content-security-policy'];
      policies.set(res.url(), csp ?? '(none)');
    });
    await page.goto(`${t.url}/signup?next=%2Faccount`);
    await page.getByLabel('Email').fill(`configure-${Date.now()}@example.com`);
    await page.getByLabel(/Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('button', { name: 'Create an API key' }).click();
    apiKey = await page.locator('#new-api-key').innerText();
  });
  after(async () => { await browser?.close(); await t?.close(); });

  it('a design of two thicknesses: each part is offered the materials of its own thickness', { timeout: 300_000 }, async () => {
    designId = await upload(TWO_THICKNESSES);
    const design = await api(`/v1/designs/${designId}`);
    const thicknesses = new Set(design.parts.map((p: any) => p.detected_thickness_mm));
    assert.ok(thicknesses.size > 1, `the fixture has parts of several thicknesses (${[...thicknesses].join(', ')})`);
    for (const part of design.parts) {
      const select = page.locator(`select[name="material_id.${part.id}"]`);
      const offered: string[] = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      const fits = new Set((await api(`/v1/materials?thickness_mm=${part.detected_thickness_mm}&limit=500`)).data.map((m: any) => m.id));
      assert.ok(offered.length > 0, `${part.name}: materials are offered`);
      assert.deepEqual(offered.filter((id) => !fits.has(id)), [], `${part.name} (${part.detected_thickness_mm} mm): only materials of its thickness`);
      assert.match(await page.getByLabel(`Material for ${part.name}`).inputValue(), /^mat_/, 'each picker is labelled with its part');
    }
    await accessible('design page, two thicknesses');
    await shot('design-two-thicknesses');

    await page.getByRole('button', { name: 'Get a quote' }).click();
    await page.waitForURL(/\/quotes\/quo_/);
    await accessible('quote page with hole operations');
    const holeSelects = page.locator('select[name^="hole_op."]');
    assert.ok(await holeSelects.count() > 0, 'hole operations are offered for the holes the DFM capabilities allow');
    const first = holeSelects.first();
    const name = (await first.getAttribute('name'))!;
    const choice = await first.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).find((v) => v !== ''));
    assert.ok(choice, 'an operation to choose');
    await first.selectOption(choice!);
    await shot('quote-hole-operations');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await page.waitForURL(/\/quotes\/quo_/);
    assert.equal(await page.locator(`select[name="${name}"]`).inputValue(), choice, 'the quote keeps the chosen hole operation');
    const quote = await api(`/v1/quotes/${new URL(page.url()).pathname.split('/').pop()}`);
    const [, partId, holes] = name.split('.');
    const [kind] = choice!.split(':');
    const cfgPart = quote.items[0].dfm.configuration.parts.find((p: any) => p.part_id === partId);
    assert.deepEqual(cfgPart[kind].map((e: any) => e.hole_id).sort(), holes.split('-').map(Number).sort(), 'every hole of the group gets the operation');
    await accessible('quote page after a hole operation');
    await shot('quote-hole-operation-kept');
  });

  it('a tube part is offered the tube profiles of its own section', { timeout: 300_000 }, async () => {
    const id = await upload(TUBE);
    const design = await api(`/v1/designs/${id}`);
    const tube = design.parts.find((p: any) => p.tube);
    assert.ok(tube, 'the part is a tube');
    assert.match(await page.locator('article.part').innerText(), /round 50 mm OD × 3 mm wall, 250 mm long/, 'the tube section in words');
    const select = page.getByLabel('Tube profile');
    const offered: string[] = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    assert.ok(offered.length > 0, 'tube profiles are offered');
    await accessible('design page, tube');
    await shot('design-tube');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await page.waitForURL(/\/quotes\/quo_/);
    const quote = await api(`/v1/quotes/${new URL(page.url()).pathname.split('/').pop()}`);
    const issues = quote.items[0].dfm.parts.flatMap((p: any) => p.issues.map((i: any) => i.code));
    assert.ok(!issues.includes('tube_profile_mismatch'), `the offered profile is the part's section (${issues.join(', ')})`);
    assert.equal(await page.getByLabel('Tube profile').inputValue(), offered[0], 'the quote keeps the profile');
    await accessible('quote page, tube');
    await shot('quote-tube');
  });

  it('account page: add, replace and remove the saved card', { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/account`);
    assert.match(await page.locator('#card').innerText(), /No card is saved/);
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.waitForURL(/\/payment-methods\/setup\//);
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(/\/account\?card=saved/);
    assert.match(await page.locator('#saved-card').innerText(), /VISA ending 4242/);
    await page.getByRole('button', { name: 'Replace card' }).click();
    await page.waitForURL(/\/payment-methods\/setup\//);
    await page.getByLabel(/4444/).check();
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.waitForURL(/\/account\?card=saved/);
    assert.match(await page.locator('#saved-card').innerText(), /MASTERCARD ending 4444/, 'the replacement is the saved card');
    assert.equal((await api('/v1/account')).card.last4, '4444');
    await accessible('account page with a card');
    await shot('account-card');
    // a remove posted without the form's CSRF token is refused, with the session cookie
    assert.equal((await page.request.post(`${t.url}/account/card/remove`, { form: {}, maxRedirects: 0 })).status(), 403);
    assert.equal((await api('/v1/account')).has_saved_card, true);
    await page.getByRole('button', { name: 'Remove card' }).click();
    await page.waitForURL(/card=removed/);
    assert.match(await page.locator('#card').innerText(), /No card is saved/);
    const account = await api('/v1/account');
    assert.equal(account.has_saved_card, false);
    assert.ok(account.payment_method_setup_url, 'a new card can be saved');
    await shot('account-card-removed');
  });

  it('the review page is in the site layout and saves an edited configuration', { timeout: 60_000 }, async () => {
    const design = await api(`/v1/designs/${designId}`);
    await page.goto(design.review_url);
    assert.ok(await page.locator('link[href="/assets/pico.min.css"]').count(), 'the site stylesheet');
    assert.ok(await page.getByRole('link', { name: 'Upload' }).isVisible(), 'the site header');
    await accessible('review page');
    const cfg = page.getByLabel(/Configuration \(JSON/);
    await cfg.fill(JSON.stringify({ parts: [{ part_id: 'prt_not_here' }] }));
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.locator('#msg.err').waitFor();
    assert.match(await page.locator('#msg').innerText(), /configuration\.parts\[0\]\.part_id/);
    const material = (await api(`/v1/materials?thickness_mm=${design.parts[0].detected_thickness_mm}&limit=1`)).data[0].id;
    await cfg.fill(JSON.stringify({ defaults: { material_id: material } }));
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.locator('#msg.ok').waitFor();
    assert.equal(await page.locator('#status').innerText(), 'saved');
    assert.equal((await api(`/v1/review-links/${design.review_link_id}`)).configuration.defaults.material_id, material);
    await shot('review');
  });

  it("every page's Content-Security-Policy: no 'unsafe-inline', and no violation logged", async () => {
    // the pages outside the browser walk: the error reference, a review link that is not found, sign in / up
    for (const path of ['/docs/errors', '/review/rvl_missing', '/signin', '/signup']) {
      const res = await fetch(`${t.url}${path}`);
      policies.set(`${t.url}${path}`, res.headers.get('content-security-policy') ?? '(none)');
    }
    const kinds = [/\/signin/, /\/signup/, /\/account/, /\/designs\/new/, /\/designs\/des_/, /\/quotes\/quo_/, /\/payment-methods\/setup\//, /\/review\/rvl_/, /\/docs\/errors/];
    for (const kind of kinds) assert.ok([...policies.keys()].some((u) => kind.test(u)), `a page of ${kind} was checked`);
    for (const [url, csp] of policies) {
      assert.match(csp, /default-src 'none'/, url);
      assert.doesNotMatch(csp, /unsafe-inline/, url);
      assert.doesNotMatch(csp, /'unsafe-eval'/, url);
      // the 3D viewer's mesh decoder compiles WebAssembly: allowed on the design page alone
      if (!/\/designs\/des_[^/?]+(\?|$)/.test(url)) assert.doesNotMatch(csp, /wasm-unsafe-eval/, url);
    }
    assert.ok([...policies].some(([url, csp]) => /\/designs\/des_/.test(url) && /script-src [^;]*'wasm-unsafe-eval'/.test(csp)), 'the design page with the viewer allows its WebAssembly');
    assert.deepEqual(cspErrors, [], 'no Content-Security-Policy violation');
  });
});
