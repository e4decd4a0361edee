// The account page's webhook endpoints in Debian's Chromium: add one (its signing secret shown once,
// the endpoint listed on the page and by GET /v1/webhook-endpoints with the account's API key), a URL
// the use case refuses shown beside the form, remove (only by the account's owner), and a post
// without the CSRF token refused.
// The page passes axe-core (no serious or critical violation). Screenshots go to out/web-webhooks/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from './helpers/service.ts';
import { axeViolations, launchBrowser } from './helpers/browser.ts';
import { webSession } from './helpers/web-session.ts';

const SHOTS = new URL('../out/web-webhooks/', import.meta.url).pathname;
const HOOK = 'https://example.com/kerf?x=<b>1</b>';

describe('web site: webhook endpoints on the account page', () => {
  let t: TestService;
  let browser: Browser;
  let page: Page;
  let apiKey = '';
  const shot = (name: string) => page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
  const listed = async () => {
    const res = await fetch(`${t.url}/v1/webhook-endpoints`, { headers: { authorization: `Bearer ${apiKey}` } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { data: Array<{ id: string; url: string; events: string[] }> }).data;
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestService({ logLevel: process.env.TEST_LOG_LEVEL ?? 'silent' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${t.url}/signup?next=/account`);
    await page.getByLabel('Email').fill(`hooks-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('button', { name: 'Create an API key' }).click();
    apiKey = await page.locator('#new-api-key').innerText();
  });
  after(async () => { await browser?.close(); await t?.close(); });

  it('adds an endpoint with the chosen events: the secret is shown once, the endpoint is listed here and by the API', async () => {
    await page.getByLabel('Endpoint URL (https)').fill(HOOK);
    await page.getByLabel('design.failed').uncheck();
    await page.getByLabel('quote.failed').uncheck();
    // keyboard: the submit button is reached and pressed without the mouse
    await page.getByRole('button', { name: 'Add a webhook endpoint' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#new-webhook-secret').waitFor();
    const secret = await page.locator('#new-webhook-secret').innerText();
    assert.match(secret, /^whsec_/);
    assert.deepEqual(await axeViolations(page), [], 'account page with a new endpoint: axe-core');
    await shot('01-added');

    const endpoints = await listed();
    assert.equal(endpoints.length, 1, 'the one endpoint added');
    const [endpoint] = endpoints;
    assert.equal(endpoint.url, new URL(HOOK).href);
    assert.ok(!endpoint.events.includes('design.failed') && !endpoint.events.includes('quote.failed'));
    assert.ok(endpoint.events.includes('design.ready'));
    const row = page.locator('#webhooks tbody tr');
    assert.equal(await row.count(), 1);
    assert.match(await row.innerText(), /example\.com\/kerf/);
    // escaped: the URL's markup is text, not an element
    assert.equal(await page.locator('#webhooks tbody b').count(), 0);

    await page.goto(`${t.url}/account`);
    assert.equal(await page.locator('#new-webhook-secret').count(), 0, 'the secret is not shown again');
    assert.ok(!(await page.content()).includes(secret));
    assert.equal(await page.locator('#webhooks tbody tr').count(), 1);
  });

  it('shows the use case\'s refusal of a URL beside the form, keeping what was entered', async () => {
    await page.getByLabel('Endpoint URL (https)').fill('http://example.com/hook');
    const answer = page.waitForResponse((r) => r.url().endsWith('/account/webhooks') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Add a webhook endpoint' }).click();
    // the same refusal answers the same status on the page and in the API (one mapping of error kinds)
    const api = await fetch(`${t.url}/v1/webhook-endpoints`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://example.com/hook' }) });
    assert.equal(api.status, 422);
    assert.equal((await answer).status(), api.status);
    await page.locator('#webhook-error').waitFor();
    assert.match(await page.locator('#webhook-error').innerText(), /https/);
    assert.equal(await page.getByLabel('Endpoint URL (https)').inputValue(), 'http://example.com/hook');
    assert.deepEqual(await axeViolations(page), [], 'account page with the error: axe-core');
    await shot('02-refused');
    assert.equal((await listed()).length, 1);
  });

  it('refuses a post without the CSRF token', async () => {
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' };
    const add = await fetch(`${t.url}/account/webhooks`, { method: 'POST', headers, body: 'url=https%3A%2F%2Fexample.com%2Fcsrf', redirect: 'manual' });
    assert.equal(add.status, 403);
    const [endpoint] = await listed();
    const remove = await fetch(`${t.url}/account/webhooks/${endpoint.id}/remove`, { method: 'POST', headers, body: '', redirect: 'manual' });
    assert.equal(remove.status, 403);
    assert.equal((await listed()).length, 1);
  });

  it('does not let another signed-in person remove the endpoint', async () => {
    const other = await webSession(t);
    const [endpoint] = await listed();
    const res = await fetch(`${t.url}/account/webhooks/${endpoint.id}/remove`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ _csrf: other.csrf }),
      headers: { cookie: other.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 404);
    assert.equal((await listed()).length, 1);
  });

  it('removes the endpoint', async () => {
    await page.goto(`${t.url}/account`);
    await page.getByRole('button', { name: /^Remove endpoint / }).click();
    await page.waitForURL(/webhook_removed=1/);
    assert.match(await page.getByRole('status').innerText(), /webhook endpoint was removed/);
    assert.equal(await page.locator('#webhooks tbody tr').count(), 0);
    assert.deepEqual(await listed(), []);
    assert.deepEqual(await axeViolations(page), [], 'account page after removing: axe-core');
    await shot('03-removed');
  });
});
