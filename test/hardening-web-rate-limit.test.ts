// The web site under the service's one rate limit (issue #16.3): its pages count against the signed-in
// account, else the client address (here named by X-Forwarded-For from the trusted loopback proxy);
// sign-up POSTs have a stricter budget per address; refusals are pages of the site with 429 +
// Retry-After; static assets are not counted.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { CookieJar } from './helpers/web-session.ts';

const PAGES = 12;
const SIGNUPS = 2;

/** One browser behind the proxy at `address`: its cookies, its requests. */
class Visitor {
  constructor(private readonly t: TestService, private readonly address: string, private readonly cookies = new CookieJar()) {}
  /** The same browser (its session) from another address. */
  at(address: string): Visitor {
    return new Visitor(this.t, address, this.cookies);
  }
  async get(path: string): Promise<Response> {
    return this.cookies.keep(await fetch(this.t.url + path, { headers: this.headers(), redirect: 'manual' }));
  }
  async signUp(email: string): Promise<Response> {
    const form = await (await this.get('/signup')).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
    return this.cookies.keep(await fetch(`${this.t.url}/signup`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ _csrf: csrf, email, password: 'a long enough password', next: '/account' }),
      headers: { ...this.headers(), 'content-type': 'application/x-www-form-urlencoded' },
    }));
  }
  private headers(): Record<string, string> {
    return { 'x-forwarded-for': this.address, ...this.cookies.header() };
  }
}

const email = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@test.local`;

/** A 429 page of the site, waiting at most `windowS` seconds. */
async function assertRefusedPage(res: Response, windowS: number, says: RegExp): Promise<string> {
  assert.equal(res.status, 429);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(retryAfter > 0 && retryAfter <= windowS, `Retry-After ${res.headers.get('retry-after')}`);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  const html = await res.text();
  assert.match(html, /<link[^>]+pico\.min\.css/, 'in the site layout');
  assert.match(html, says);
  return html;
}

describe('hardening: the web site under the rate limit', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({
      rateLimit: { max: PAGES, windowMs: 600_000 }, signupRateLimit: { max: SIGNUPS, windowMs: 3_600_000 }, trustProxy: '127.0.0.1',
    });
  });
  after(async () => { await t?.close(); });

  it('a sign-up flood from one address is refused after its budget, creating no account; another address signs up', async () => {
    const emails = [email('a'), email('b'), email('c'), email('d')];
    const answers: Response[] = [];
    for (const e of emails) answers.push(await new Visitor(t, '203.0.113.7').signUp(e));
    assert.deepEqual(answers.map((r) => r.status), [303, 303, 429, 429]);
    await assertRefusedPage(answers[2], 3600, /Too many sign-ups/);
    assert.ok(Number(answers[2].headers.get('retry-after')) > 600, 'the sign-up window (an hour), not the page window');
    for (const e of emails.slice(0, 2)) assert.ok(await t.service.store.accounts.findByEmail(e), `${e} was created`);
    for (const e of emails.slice(2)) assert.equal(await t.service.store.accounts.findByEmail(e), null, `${e} was refused: no account`);

    assert.equal((await new Visitor(t, '198.51.100.9').signUp(email('other'))).status, 303, 'another address keeps its budget');
    // an IPv6 client by its /64
    const v6 = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:abcd::3'];
    const v6Answers = [];
    for (const a of v6) v6Answers.push((await new Visitor(t, a).signUp(email('v6'))).status);
    assert.deepEqual(v6Answers, [303, 303, 429]);
  });

  it('a flood of page GETs is refused at the max; static assets are not counted; a signed-in person counts against the account', async () => {
    const flooder = new Visitor(t, '192.0.2.44');
    for (const asset of ['/assets/pico.min.css', '/assets/site/site.css', '/assets/model-viewer/model-viewer.min.js', '/assets/pico.min.css']) {
      assert.equal((await flooder.get(asset)).status, 200, asset);
    }
    for (let i = 0; i < PAGES; i++) {
      const res = await flooder.get('/signin');
      assert.equal(res.status, 200, `page ${i + 1}`);
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(PAGES - i - 1));
      await res.arrayBuffer();
    }
    await assertRefusedPage(await flooder.get('/signin'), 600, /Too many requests/);
    assert.equal((await flooder.get('/signup')).status, 429, 'every page of the site');
    assert.equal((await flooder.get('/assets/pico.min.css')).status, 200, 'the stylesheet of the refusal page still loads');
    const api = await fetch(`${t.url}/v1/openapi.json`, { headers: { 'x-forwarded-for': '192.0.2.44' } });
    assert.equal(api.status, 429, 'one budget per address across the site and /v1');

    // a person who signed up elsewhere, now browsing from the spent address: the account's own budget
    const person = new Visitor(t, '198.51.100.77');
    assert.equal((await person.signUp(email('person'))).status, 303);
    const moved = person.at('192.0.2.44');
    for (let i = 0; i < PAGES; i++) assert.equal((await moved.get('/account')).status, 200, `account page ${i + 1}`);
    const html = await assertRefusedPage(await moved.get('/account'), 600, /Too many requests/);
    assert.match(html, /person-/, 'the refusal page is the signed-in layout');
  });
});
