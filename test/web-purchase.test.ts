// A person buys a part on the web site, in Debian's Chromium: sign up, upload a real corpus part,
// see it in 3D (the viewer draws non-blank pixels), choose a material, quote, accept the risks the
// DFM allows, add to cart, enter a US address, pick shipping, save a test card on the processor's
// page, pay, and see the order with its sheet nest (the DXF downloads). Every page passes axe-core with no serious or critical violation and
// logs no Content-Security-Policy violation. Screenshots of each step go to out/web-purchase/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { axeViolations, launchBrowser, WEBGL_ARGS } from './helpers/browser.ts';

const PART = '/work/shared/corpus/real/ender3-support-frame.step';
const SHOTS = new URL('../out/web-purchase/', import.meta.url).pathname;
/** A pixel farther than this from the viewer's background colour (sum of RGB differences) is drawn. */
const DRAWN_DELTA = 40;

describe('web site: upload, quote, checkout and pay in a real browser', () => {
  let t: TestService;
  let browser: Browser;
  let page: Page;
  const cspErrors: string[] = [];
  let step = 0;
  let checkoutUrl = '';
  let buyer = '';
  const shot = async (name: string) => { await page.screenshot({ path: `${SHOTS}${String(++step).padStart(2, '0')}-${name}.png`, fullPage: true, caret: 'initial' }); }; // 'hide' would inject a style the CSP refuses
  const accessible = async (what: string) => assert.deepEqual(await axeViolations(page), [], `${what}: axe-core`);

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    browser = await launchBrowser(WEBGL_ARGS);
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('console', (m) => { if (/Content.Security.Policy|Refused to/i.test(m.text())) cspErrors.push(`${page.url()} (${m.location().url}:${m.location().lineNumber}:${m.location().columnNumber}): ${m.text()}`); });
    // a refused WebAssembly compile surfaces as an uncaught error (model-viewer's mesh decoder), not only on the console
    page.on('console', (m) => { if (/WebGL|GPU|context lost/i.test(m.text())) console.log('BROWSER:', m.text()); });
    page.on('pageerror', (e) => { if (/Content.Security.Policy|WebAssembly|wasm/i.test(String(e.message))) cspErrors.push(`${page.url()}: ${e.message}`); });
  });
  after(async () => { await browser?.close(); await t?.close(); });

  it('signs up, uploads, sees the part in 3D, quotes, checks out and pays', { timeout: 240_000 }, async () => {
    await page.goto(`${t.url}/designs/new`);
    assert.match(page.url(), /\/signin\?next=/, 'signing in comes first');
    await page.getByRole('link', { name: 'Sign up' }).click();
    buyer = `buyer-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(buyer);
    await page.getByLabel(/Password/).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/designs\/new$/);
    await accessible('upload page');
    await shot('upload');

    await page.setInputFiles('#file', PART);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/designs\/des_/);
    await page.locator('#configure').waitFor({ timeout: 180_000 });
    assert.match(await page.locator('#design-status').innerText(), /1 unique part/);
    await page.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, null, { timeout: 60_000 });
    // 'loaded' comes before the first frame: until model-viewer finds the model visible, toDataURL
    // returns its blank 2D canvas. Wait for visibility, then read frames until one is drawn.
    await page.waitForFunction(() => (document.querySelector('model-viewer') as any)?.modelIsVisible === true, null, { timeout: 60_000 });
    const drawn = await page.evaluate(async ({ delta, patienceMs }) => {
      // (no named inner functions: the test's TypeScript loader would wrap them in a helper the page lacks)
      const viewer = document.querySelector('model-viewer') as any;
      const until = Date.now() + patienceMs;
      for (;;) {
        const img = new Image();
        img.src = await viewer.toDataURL('image/png');
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width; canvas.height = img.height;
        const c2d = canvas.getContext('2d')!;
        c2d.drawImage(img, 0, 0);
        const px = c2d.getImageData(0, 0, canvas.width, canvas.height).data;
        const bg = [px[0], px[1], px[2]];
        let n = 0;
        for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - bg[0]) + Math.abs(px[i + 1] - bg[1]) + Math.abs(px[i + 2] - bg[2]) > delta) n++;
        const total = px.length / 4;
        if (n > total * 0.01 || Date.now() > until) {
          // what the viewer was in, for a failure's message
          const canvases = [...(viewer.shadowRoot?.querySelectorAll('canvas') ?? [])].map((c: any) => `${c.width}x${c.height}${c.getContext('webgl2')?.isContextLost?.() ? ' context lost' : ''}`);
          return { n, total, state: `visible=${viewer.modelIsVisible} loaded=${viewer.loaded} bg=${bg.join(',')} canvases=${canvases.join(' ')}` };
        }
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)));
      }
    }, { delta: DRAWN_DELTA, patienceMs: 30_000 });
    assert.ok(drawn.n > drawn.total * 0.01, `the 3D viewer draws the part (${drawn.n} of ${drawn.total} pixels; ${drawn.state})`);
    assert.ok(await page.locator('.flat img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the flat pattern SVG loads');
    await accessible('design page');
    await shot('design-3d');
    const flat = page.getByRole('button', { name: 'Flat' });
    await flat.click();
    assert.equal(await flat.getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('model-viewer').getAttribute('src'), await flat.getAttribute('data-src'), 'the viewer shows the flat model');
    await page.waitForFunction(() => (document.querySelector('model-viewer') as any)?.loaded === true, null, { timeout: 60_000 });

    const material = page.getByLabel('Material');
    assert.ok((await material.locator('option').count()) > 0, 'materials that fit the part are offered');
    await page.getByLabel('Quantity').fill('4');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await page.waitForURL(/\/quotes\/quo_/);
    await accessible('quote page');
    await shot('quote-findings');
    // one findings list, numbered as the drawing's markers, a box beside each risk the customer may accept
    assert.equal(await page.locator('#findings table').count(), 0, 'the findings are listed once');
    // ... and the drawing above the list carries only the numbered markers, not a second list (its legend)
    const drawing = await page.request.get(new URL(String(await page.locator('#findings figure img').first().getAttribute('src')), page.url()).href);
    const markersOnly = await drawing.text();
    assert.match(markersOnly, /class="finding"/, 'the findings are marked on the drawing');
    assert.doesNotMatch(markersOnly, /class="legend/, 'the drawing has no legend of its own');
    const findings = page.locator('#findings-list li');
    assert.ok((await findings.count()) > 0, 'the part has findings');
    const risks = page.locator('#findings-list input[name=accepted_risks]');
    assert.ok((await risks.count()) > 0, 'this part has risks to accept');
    assert.equal(await page.locator('#configure input[name=accepted_risks]').count(), 0, 'no second set of boxes in the form');
    for (const box of await risks.all()) assert.equal(await box.getAttribute('form'), 'configure');
    // not ready yet (risks not accepted): no total that reads as a price
    assert.doesNotMatch(await page.locator('#quote-status').innerText(), /ready to order/);
    assert.doesNotMatch(await page.locator('#quote-subtotal').innerText(), /\$/, 'a quote that cannot be ordered shows no total');
    for (const box of await risks.all()) await box.check();
    // finishes are those the DFM capabilities allow for the material
    await page.getByLabel('Finish', { exact: true }).selectOption({ label: 'Deburr (tumble)' });
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await page.waitForURL(/\/quotes\/quo_/);
    assert.equal(await page.getByLabel('Finish', { exact: true }).inputValue(), 'fin_deburr', 'the quote keeps the chosen finish');
    assert.match(await page.locator('#quote-status').innerText(), /ready to order/);
    assert.match(await page.locator('#quote-subtotal').innerText(), /^\$\d/, 'a ready quote shows its total');
    assert.match(await page.locator('#prices tbody').first().innerText(), /Deburr \(tumble\)/, 'the price table names the finish priced');
    assert.ok((await page.locator('#findings-list input[name=accepted_risks]:checked').count()) > 0, 'the accepted risks stay checked');
    assert.ok((await page.locator('#quantity-options tbody tr').count()) > 0, 'other quantities with unit prices');
    await shot('quote-ready');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.waitForURL(/\/checkout\/ctk_/);
    checkoutUrl = page.url();
    const items = await page.locator('#items').innerText();
    assert.match(items, /Support frame/, 'items by part name');
    assert.match(items, /Deburr \(tumble\)/, 'the finish bought');
    assert.match(items, /steel|aluminium|aluminum|stainless/i, 'the material by name');
    await accessible('checkout page');

    await page.getByLabel('Full name').fill('R. Doe <script>alert(1)</script>');
    await page.getByLabel('Street address').fill('1 Main St');
    await page.getByLabel('City').fill('Austin');
    await page.getByLabel('State').selectOption('TX');
    await page.getByLabel('ZIP code').fill('78701');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.waitForURL(/updated=1/);
    assert.equal(await page.getByLabel('Full name').inputValue(), 'R. Doe <script>alert(1)</script>', 'the name is kept as text');
    await page.locator('input[name=shipping_option_id]').first().check();
    await shot('checkout-address');
    await page.getByRole('button', { name: 'Use this shipping' }).click();
    await page.waitForURL(/updated=1/);
    assert.doesNotMatch(await page.locator('#totals').innerText(), /needs the address|choose an option/);
    await accessible('checkout with shipping');
    await shot('checkout-shipping');

    await page.locator('#add-card').click();
    await page.waitForURL(/\/payment-methods\/setup\//);
    const save = page.getByRole('button', { name: 'Save card' });
    assert.equal(await save.evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(31, 95, 191)', 'the test-card page is styled');
    await accessible('test card page');
    await shot('test-card');
    await save.click();
    // saving the card returns to the checkout that sent the customer
    await page.waitForURL((u) => u.href.startsWith(`${checkoutUrl}?`) && u.searchParams.get('card') === 'saved');
    assert.match(await page.getByRole('status').first().innerText(), /card was saved/i);
    assert.match(await page.locator('#saved-card').innerText(), /ending 4242/);
    await shot('checkout-pay');
    await page.locator('#pay').click();
    await page.waitForURL(/\/orders\/ord_/);
    assert.match(await page.locator('#order-status').innerText(), /Received/);
    const bought = await page.locator('#order-items').innerText();
    assert.match(bought, /Support frame/, 'the order names the part');
    assert.doesNotMatch(bought, /Part prt_/);
    assert.match(bought, /Deburr \(tumble\)/, 'the order shows the finish');
    // the order's JSON as the API serves it (the same record): the part's name and the finish bought
    const account = await t.service.store.accounts.findByEmail(buyer);
    const order = await t.service.store.orders.get(account!.id, new URL(page.url()).pathname.split('/').pop()!);
    const partLine = order!.data.line_items.find((l) => l.type === 'part')!;
    assert.equal(partLine.name, 'Support frame');
    assert.equal(partLine.finish_id, 'fin_deburr');
    // the nest for the shop: the sheet drawn (a named image) and its DXF, which the browser downloads
    await page.getByRole('img', { name: /^Sheet 1 of \d+ of Mild Steel/ }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'DXF for cutting' }).first().click()]);
    assert.match(download.suggestedFilename(), /-nest-mat_mild_steel_1_5mm-sheet-1\.dxf$/);
    assert.match(readFileSync(await download.path(), 'utf8'), /\$INSUNITS/);
    await accessible('order page');
    await shot('order');
    await page.getByRole('link', { name: 'All orders' }).click();
    assert.equal(await page.locator('tbody tr').count(), 1);
    await shot('orders');
    assert.deepEqual(cspErrors, [], 'no Content-Security-Policy violation');
  });

  it('without JavaScript: sign-up and the plain upload form work; another account cannot open the checkout link', async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      const other = await plain.newPage();
      await other.goto(checkoutUrl);
      assert.ok(await other.getByRole('button', { name: 'Sign in to check out' }).isVisible(), 'a visitor is asked to sign in');
      await other.goto(`${t.url}/signup?next=%2Fdesigns%2Fnew`);
      await other.getByLabel('Email').fill(`other-${Date.now()}@example.com`);
      await other.getByLabel(/Password/).fill('correct horse battery');
      await other.getByRole('button', { name: 'Create account' }).click();
      await other.waitForURL(/\/designs\/new$/);
      await other.setInputFiles('#file', PART);
      await other.getByRole('button', { name: 'Upload' }).click();
      await other.waitForURL(/\/designs\/des_/);
      assert.match(await other.locator('#design-status').innerText(), /Analyzing|unique part/);
      const res = await other.goto(checkoutUrl);
      assert.equal(res?.status(), 404, "another account's session does not see the cart");
      assert.doesNotMatch(await other.content(), /R\. Doe/);
    } finally {
      await plain.close();
    }
  });

  it('refuses a form post without its CSRF token, even with the session cookie', async () => {
    const res = await page.request.post(`${t.url}/designs/new/quote`, { form: { material_id: 'x', quantity: '1' }, maxRedirects: 0 });
    assert.equal(res.status(), 403);
    const pay = await page.request.post(`${t.url}/account/api-keys`, { form: { label: 'no token' }, maxRedirects: 0 });
    assert.equal(pay.status(), 403);
    assert.doesNotMatch(await pay.text(), /kerf_/);
  });

  it('account page: the saved card, an API key shown once and revoked', async () => {
    await page.goto(`${t.url}/account`);
    assert.match(await page.locator('#card').innerText(), /ending 4242/);
    assert.match(await page.locator('#dropship').innerText(), /Not set up|Status/);
    await page.getByLabel('Label (optional)').fill('<i>ci</i>');
    await page.getByRole('button', { name: 'Create an API key' }).click();
    const key = await page.locator('#new-api-key').innerText();
    assert.match(key, /^kerf_/);
    assert.match(await page.locator('#api-keys').innerText(), /<i>ci<\/i>/, 'the label is shown as text');
    await accessible('account page');
    await shot('account');
    const api = await fetch(`${t.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(api.status, 200, 'the new key works');
    await page.goto(`${t.url}/account`);
    assert.equal(await page.locator('#new-api-key').count(), 0, 'the key is shown once');
    await page.getByRole('button', { name: /^Revoke key/ }).click();
    await page.waitForURL(/key_revoked=1/);
    assert.match(await page.locator('#api-keys').innerText(), /No API keys/);
    assert.equal((await fetch(`${t.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } })).status, 401, 'the revoked key is refused');
  });
});
