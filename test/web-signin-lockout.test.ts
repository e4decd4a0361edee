// Sign-in lockout per account AND client address, with backoff (issue #33.10): a stranger failing the
// owner's password locks only the stranger's address, with a wait that doubles per further failure;
// the owner signs in from their own address meanwhile (the web form through a trusted proxy, and the
// use case on the store with a clock of the test's own); a spread-out attack's per-email ceiling
// spares an address the owner signed in from before.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPasswordAccount, signIn, SIGN_IN_LIMITS, UseCaseError } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { CookieJar } from './helpers/web-session.ts';

const PASSWORD = 'the owner password';
const WRONG = 'a guessed password';

const refused = (wait: (s: number) => boolean) => (err: unknown) =>
  err instanceof UseCaseError && err.code === 'too_many_sign_in_attempts' && wait(err.retryAfterSeconds ?? -1);
const wrong = (err: unknown) => err instanceof UseCaseError && err.code === 'invalid_credentials';

describe('sign-in lockout per account and address, with backoff', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ trustProxy: '127.0.0.1' }); });
  after(async () => { await t?.close(); });

  async function webSignIn(address: string, email: string, password: string): Promise<Response> {
    const jar = new CookieJar();
    const headers = { 'x-forwarded-for': address };
    const form = await jar.keep(await fetch(`${t.url}/signin`, { headers })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form)![1];
    return fetch(`${t.url}/signin`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ _csrf: csrf, email, password, next: '/account' }),
      headers: { ...headers, ...jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  it('on the web: a stranger\'s failures lock the stranger\'s address only; the owner signs in from theirs', async () => {
    const email = `owner-${Date.now()}@test.local`;
    await createPasswordAccount(t.service.ctx, { email, password: PASSWORD });
    const stranger: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMITS.perPair + 2; i++) stranger.push((await webSignIn('203.0.113.66', email, WRONG)).status);
    assert.deepEqual(stranger, [...Array(SIGN_IN_LIMITS.perPair).fill(401), 429, 429]);
    const locked = await webSignIn('203.0.113.66', email, PASSWORD);
    assert.equal(locked.status, 429, 'the right password at the locked address waits too');
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    const owner = await webSignIn('198.51.100.5', email, PASSWORD);
    assert.equal(owner.status, 303, 'the owner at another address is not locked out');
    assert.match(owner.headers.getSetCookie().join(';'), /kerf_session=/);
  });

  it('the wait doubles with each failure after the lock and ends; a success clears it', async () => {
    const email = `backoff-${Date.now()}@test.local`;
    await createPasswordAccount(t.service.ctx, { email, password: PASSWORD });
    let now = Date.now();
    const ctx = { store: t.service.store, now: () => new Date(now) };
    const at = (client_ip: string, password: string) => signIn(ctx, { email, password, client_ip });
    for (let i = 0; i < SIGN_IN_LIMITS.perPair; i++) await assert.rejects(at('192.0.2.9', WRONG), wrong);
    const first = SIGN_IN_LIMITS.firstWaitMs / 1000;
    await assert.rejects(at('192.0.2.9', PASSWORD), refused((s) => s === first));
    now += SIGN_IN_LIMITS.firstWaitMs + 1;
    await assert.rejects(at('192.0.2.9', WRONG), wrong, 'after the wait one more try is checked');
    await assert.rejects(at('192.0.2.9', WRONG), refused((s) => s === 2 * first), 'the next wait is twice as long');
    now += 2 * SIGN_IN_LIMITS.firstWaitMs + 1;
    await assert.rejects(at('192.0.2.9', WRONG), wrong);
    await assert.rejects(at('192.0.2.9', WRONG), refused((s) => s === 4 * first));
    // the owner elsewhere is never affected
    assert.ok((await at('2001:db8:5::1', PASSWORD)).sessionToken);
    now += 4 * SIGN_IN_LIMITS.firstWaitMs + 1;
    assert.ok((await at('192.0.2.9', PASSWORD)).sessionToken, 'the right password after the wait');
    for (let i = 0; i < SIGN_IN_LIMITS.perPair; i++) await assert.rejects(at('192.0.2.9', WRONG), wrong, 'a success starts the count again');
  });

  it('failures spread over many addresses hit the per-email ceiling, which spares an address the owner signed in from', async () => {
    const email = `spread-${Date.now()}@test.local`;
    await createPasswordAccount(t.service.ctx, { email, password: PASSWORD });
    const ctx = { store: t.service.store, now: () => new Date() };
    assert.ok((await signIn(ctx, { email, password: PASSWORD, client_ip: '198.51.100.77' })).sessionToken);
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) {
      await assert.rejects(signIn(ctx, { email, password: WRONG, client_ip: `10.${i >> 8}.${i & 255}.1` }), wrong);
    }
    await assert.rejects(signIn(ctx, { email, password: PASSWORD, client_ip: '10.200.0.1' }), refused((s) => s > 0), 'a new address waits');
    assert.ok((await signIn(ctx, { email, password: PASSWORD, client_ip: '198.51.100.77' })).sessionToken, 'the owner\'s usual address signs in');
  });
});
