// The sign-in throttle's records and expired web sessions do not pile up for good
// (adapters/usecases/src/identity/web-accounts.ts): the janitor deletes failure records once their
// window and wait are over and known addresses after knownAddressMs, keeping live ones; a sign-in
// deletes its account's expired sessions. Real service, store on disk, the use cases with their
// clock moved forward.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPasswordAccount, Janitor, SIGN_IN_LIMITS, signIn } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const THROTTLE = 'web_sign_in_failures';
const SESSIONS = 'web_sessions';

describe('sign-in records pruned', () => {
  let t: TestService;
  before(async () => { t = await startTestService(); });
  after(async () => { await t?.close(); });

  const at = (ms: number) => ({ ...t.service.ctx, now: () => new Date(ms) });
  const throttleKeys = async (): Promise<string[]> => (await t.service.store.documents(THROTTLE).list('system', { limit: 100 })).items.map((d) => String(d.key)).sort();
  const janitorAt = async (ms: number): Promise<void> => {
    const janitor = new Janitor(at(ms));
    janitor.start();
    await janitor.stop();
  };

  it('the janitor removes spent failure records and stale known addresses, and keeps live ones', async () => {
    const start = Date.now();
    await createPasswordAccount(at(start), { email: 'prune@example.com', password: 'correct horse battery' });
    // a stranger fails twice from one address; the owner signs in from another
    for (const _ of [1, 2]) await assert.rejects(signIn(at(start), { email: 'prune@example.com', password: 'wrong', client_ip: '198.51.100.7' }), /not right/);
    await signIn(at(start), { email: 'prune@example.com', password: 'correct horse battery', client_ip: '203.0.113.9' });
    const before = await throttleKeys();
    assert.equal(before.filter((k) => k.startsWith('pair:')).length, 1, 'the stranger\'s pair');
    assert.equal(before.filter((k) => k.startsWith('email:')).length, 1);
    assert.ok(before.includes('ip:198.51.100.7'));
    assert.equal(before.filter((k) => k.startsWith('known:')).length, 1, 'the owner\'s address');

    await janitorAt(start + 10 * MINUTE);
    assert.deepEqual(await throttleKeys(), before, 'within the window every record is kept');
    // the stranger is still held back after a pass: the records the lock reads are there
    await janitorAt(start + SIGN_IN_LIMITS.forgetMs + MINUTE);
    assert.deepEqual((await throttleKeys()).map((k) => k.split(':')[0]), ['known'], 'spent failures are gone, the known address stays');
    await janitorAt(start + SIGN_IN_LIMITS.knownAddressMs + DAY);
    assert.deepEqual(await throttleKeys(), [], 'an address not signed in from for knownAddressMs is forgotten');
  });

  it('a sign-in deletes its account\'s expired sessions, not live ones', async () => {
    const start = Date.now();
    const account = await createPasswordAccount(at(start), { email: 'sessions@example.com', password: 'correct horse battery' });
    const sessions = async () => (await t.service.store.documents(SESSIONS).list(account.id, { limit: 100 })).items.length;
    await signIn(at(start), { email: 'sessions@example.com', password: 'correct horse battery' });
    await signIn(at(start + 2 * DAY), { email: 'sessions@example.com', password: 'correct horse battery' });
    assert.equal(await sessions(), 2);
    // eight days on the first session has expired (7 days), the second has not
    await signIn(at(start + 8 * DAY), { email: 'sessions@example.com', password: 'correct horse battery' });
    assert.equal(await sessions(), 2, 'the expired one is gone, the live one and the new one stay');
  });
});
