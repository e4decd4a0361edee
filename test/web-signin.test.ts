// The web site's sign-up, sign-in and sign-out over HTTP as a browser does it (forms, cookies):
// CSRF tokens on every form, httpOnly SameSite session cookies, throttled sign-in, escaped text,
// CSP without unsafe-inline, KERF_SIGNUP=closed, and `kerf admin create-account`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from './helpers/service.ts';
import { CookieJar } from './helpers/web-session.ts';

const KERF = fileURLToPath(new URL('../bin/kerf.mjs', import.meta.url));
const PASSWORD = 'correct horse battery';

/** A browser's cookie jar and form posts, by hand. */
class Browserish {
  cookies = new CookieJar();
  constructor(private readonly base: string) {}
  async get(path: string): Promise<Response> {
    return this.cookies.keep(await fetch(this.base + path, { headers: this.cookies.header(), redirect: 'manual' }));
  }
  async post(path: string, form: Record<string, string>): Promise<Response> {
    return this.cookies.keep(await fetch(this.base + path, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams(form).toString(),
      headers: { ...this.cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
    }));
  }
  /** The CSRF token of the page's first form. */
  static csrf(html: string): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    assert.ok(m, 'the form carries a CSRF token');
    return m[1];
  }
}

function kerf(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KERF, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function signUp(b: Browserish, email: string, password = PASSWORD): Promise<Response> {
  const form = await (await b.get('/signup')).text();
  return b.post('/signup', { _csrf: Browserish.csrf(form), email, password, next: '/account' });
}

describe('web site: sign up, sign in, sign out', () => {
  let t: TestService;
  before(async () => { t = await startTestService(); });
  after(async () => { await t?.close(); });

  it('sign-up signs in with an httpOnly SameSite cookie; the account page escapes the email; CSP has no unsafe-inline', async () => {
    const b = new Browserish(t.url);
    const email = `<b>x</b>${Date.now()}@example.com`;
    const res = await signUp(b, email);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/account');
    const session = res.headers.getSetCookie().find((c) => c.startsWith('kerf_session='))!;
    assert.match(session, /HttpOnly/i);
    assert.match(session, /SameSite=Lax/i);
    const account = await b.get('/account');
    assert.equal(account.status, 200);
    const html = await account.text();
    assert.ok(html.includes('&#60;b&#62;x&#60;/b&#62;'), 'the email is escaped');
    assert.ok(!html.includes('<b>x</b>'));
    const csp = account.headers.get('content-security-policy')!;
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.doesNotMatch(html, /<script|style=/);
    const css = await fetch(`${t.url}/assets/pico.min.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type')!, /text\/css/);
  });

  it('a form posted without its CSRF token (or with a forged one) is refused', async () => {
    const b = new Browserish(t.url);
    await b.get('/signin');
    const none = await b.post('/signin', { email: 'a@b.c', password: 'whatever-long' });
    assert.equal(none.status, 403);
    const forged = await b.post('/signin', { _csrf: 'forged-token', email: 'a@b.c', password: 'whatever-long' });
    assert.equal(forged.status, 403);
    // a token from another browser's cookie does not work either
    const other = new Browserish(t.url);
    const token = Browserish.csrf(await (await other.get('/signin')).text());
    assert.equal((await b.post('/signin', { _csrf: token, email: 'a@b.c', password: 'whatever-long' })).status, 403);
    // every other form too, signed in or not
    const me = new Browserish(t.url);
    await signUp(me, `csrf-${Date.now()}@example.com`);
    for (const path of ['/signup', '/signout', '/account/connections/grant_x/revoke', '/oauth/consent/uid_x']) {
      assert.equal((await me.post(path, { decision: 'approve' })).status, 403, path);
    }
    assert.ok(me.cookies.has('kerf_session'), 'a refused sign-out leaves the session alone');
  });

  it('pages that need a person send a visitor to sign in and back', async () => {
    const b = new Browserish(t.url);
    for (const path of ['/account', '/oauth/consent/uid_x']) {
      const res = await b.get(path);
      assert.equal(res.status, 303, path);
      assert.equal(res.headers.get('location'), `/signin?next=${encodeURIComponent(path)}`);
    }
    // signed in, a consent page without a pending authorization says so
    await signUp(b, `stale-${Date.now()}@example.com`);
    const stale = await b.get('/oauth/consent/uid_x');
    assert.equal(stale.status, 400);
    assert.match(await stale.text(), /no longer pending/);
  });

  it('wrong passwords fail alike for unknown emails; five failures pause sign-in with Retry-After, even for the right password', async () => {
    const email = `throttle-${Date.now()}@example.com`;
    await signUp(new Browserish(t.url), email);
    const b = new Browserish(t.url);
    const attempt = async (password: string, who = email) => {
      const token = Browserish.csrf(await (await b.get('/signin')).text());
      return b.post('/signin', { _csrf: token, email: who, password, next: '/account' });
    };
    const unknown = await attempt('wrong password!', `nobody-${Date.now()}@example.com`);
    assert.equal(unknown.status, 401);
    for (let i = 0; i < 5; i += 1) {
      const res = await attempt('wrong password!');
      assert.equal(res.status, 401);
      assert.match(await res.text(), /The email or password is not right/);
    }
    const paused = await attempt(PASSWORD);
    assert.equal(paused.status, 429);
    assert.ok(Number(paused.headers.get('retry-after')) > 0);
    assert.equal(b.cookies.has('kerf_session'), false);
  });

  it('sign-in goes only to a path of this site; sign-out ends the session', async () => {
    const email = `next-${Date.now()}@example.com`;
    await signUp(new Browserish(t.url), email);
    const b = new Browserish(t.url);
    const token = Browserish.csrf(await (await b.get('/signin?next=//evil.example/x')).text());
    const res = await b.post('/signin', { _csrf: token, email, password: PASSWORD, next: '//evil.example/x' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/account');
    const session = b.cookies.get('kerf_session')!;
    const page = await (await b.get('/account')).text();
    const out = await b.post('/signout', { _csrf: Browserish.csrf(page) });
    assert.equal(out.status, 303);
    assert.equal(b.cookies.has('kerf_session'), false);
    // the old cookie is dead on the server too
    const replay = await fetch(`${t.url}/account`, { headers: { cookie: `kerf_session=${session}` }, redirect: 'manual' });
    assert.equal(replay.status, 303);
    assert.match(replay.headers.get('location')!, /^\/signin\?next=/);
  });

  it('a signed-in person sent to `next` lands on this site only: tabs, newlines and backslashes never make another origin or a 500', async () => {
    const email = `next-odd-${Date.now()}@example.com`;
    const b = new Browserish(t.url);
    await signUp(b, email);
    const cases: Array<[string, string]> = [
      ['/%09/evil.example', '/account'], // the URL parser drops the tab: "//evil.example", another host
      ['/%0a/evil.example', '/account'],
      ['/%5C/evil.example', '/account'], // "/\\/evil.example"
      ['/..//evil.example', '/account'],
      ['/%0aSet-Cookie:x=1', '/Set-Cookie:x=1'], // same origin once the newline is dropped; never a header
      ['/designs/new?x=1', '/designs/new?x=1'],
    ];
    for (const [next, expected] of cases) {
      const res = await b.get(`/signin?next=${next}`);
      assert.equal(res.status, 303, next);
      assert.equal(res.headers.get('location'), expected, next);
      const location = new URL(res.headers.get('location')!, t.url);
      assert.equal(location.origin, new URL(t.url).origin, next);
    }
  });

  it('sign-up refuses a short password and a taken email', async () => {
    const email = `taken-${Date.now()}@example.com`;
    // a refused form answers its error kind's status, as the API does (invalid: 422)
    assert.equal((await signUp(new Browserish(t.url), email, 'short')).status, 422);
    assert.equal((await signUp(new Browserish(t.url), email)).status, 303);
    const again = await signUp(new Browserish(t.url), email);
    assert.equal(again.status, 422);
    assert.match(await again.text(), /exists/);
  });
});

describe('web site with KERF_SIGNUP=closed', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ signupOpen: false }); });
  after(async () => { await t?.close(); });

  it('has no sign-up; `kerf admin create-account` makes an account that signs in', async () => {
    const b = new Browserish(t.url);
    assert.equal((await b.get('/signup')).status, 404);
    assert.doesNotMatch(await (await b.get('/signin')).text(), /Sign up/);
    const token = Browserish.csrf(await (await b.get('/signin')).text());
    assert.equal((await b.post('/signup', { _csrf: token, email: 'x@example.com', password: PASSWORD })).status, 404);

    const email = `admin-made-${Date.now()}@example.com`;
    await t.service.close(); // the CLI opens the same embedded store
    const r = await kerf(['admin', 'create-account', '--email', email], { KERF_DATA_DIR: t.dataDir });
    assert.equal(r.code, 0, r.stderr);
    const made = JSON.parse(r.stdout) as { account_id: string; email: string; password: string };
    assert.equal(made.email, email);
    assert.ok(made.password.length >= 16);
    const dup = await kerf(['admin', 'create-account', '--email', email], { KERF_DATA_DIR: t.dataDir });
    assert.equal(dup.code, 1);
    assert.equal((JSON.parse(dup.stderr) as { error: { code: string } }).error.code, 'email_taken');

    const again = await startTestService({ signupOpen: false, dataDir: t.dataDir });
    try {
      const c = new Browserish(again.url);
      const tok = Browserish.csrf(await (await c.get('/signin')).text());
      const res = await c.post('/signin', { _csrf: tok, email, password: made.password, next: '/account' });
      assert.equal(res.status, 303);
      assert.match(await (await c.get('/account')).text(), new RegExp(email.replace(/[.]/g, '\\.')));
    } finally {
      await again.close();
    }
  });
});
