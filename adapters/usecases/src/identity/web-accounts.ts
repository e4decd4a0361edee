// People on the web site: accounts with an email and a password (scrypt), sign-in throttling, and
// sessions. A session token is shown to the browser once (its cookie); the store keeps its sha256.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { isStoreError, type Account, type DocumentRecord, type Store } from '@kerf/store';
import {
  SCOPES, type Caller, type UseCaseContext, UseCaseError, invalid, SignInInput, SignUpInput, validateInput, addressSubject,
} from '../core/index.ts';
import { oauthDocId as sha256Id } from './oauth-records.ts';
import { type PruneCursors, sweepOwned } from './owned-sweep.ts';

/** What these use cases need: the store and a clock (the admin CLI has no engine). */
export type AccountsContext = Pick<UseCaseContext, 'store' | 'now'>;

/** scrypt cost (N = 2^15, r = 8, p = 1: 32 MiB and tens of milliseconds per hash). */
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Sign-in throttling. A lock is per account (email) AND client address, so a stranger guessing the
 * owner's password locks out only the stranger's own address: `perPair` free failures, then a wait
 * that doubles with each further failure (`firstWaitMs`, up to `maxWaitMs`), forgotten `forgetMs`
 * after the last failure or at a success. One address may fail `perAddress` times in `windowMs`
 * across every email (spraying one password over many accounts). An email may fail `perEmail`
 * times in `windowMs` from every address together (guessing from many addresses); that ceiling does
 * not apply to an address the account has signed in from before (kept `knownAddressMs`), so even a
 * spread-out attack does not lock the owner out where they usually sign in.
 */
export const SIGN_IN_LIMITS = {
  perPair: 5, firstWaitMs: 60_000, maxWaitMs: 15 * 60 * 1000, forgetMs: 60 * 60 * 1000,
  perAddress: 30, perEmail: 100, windowMs: 15 * 60 * 1000, knownAddressMs: 90 * 24 * 60 * 60 * 1000,
} as const;

const PASSWORDS = 'web_passwords';
const SESSIONS = 'web_sessions';
const THROTTLE = 'web_sign_in_failures';
const SYSTEM = 'system';

interface PasswordDoc { hash: string }
interface SessionDoc { expiresAt: string }
interface FailureDoc { count: number; since: string; last?: string }
interface KnownDoc { at: string }

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFKC'), salt, KEY_BYTES, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Hashing a password nobody has keeps a sign-in for an unknown email as slow as a wrong password. */
const DECOY = hashPassword(randomBytes(16).toString('hex'));

/** Makes an account that signs in with this email and password (sign-up, `kerf admin create-account`). */
export async function createPasswordAccount(ctx: AccountsContext, input: unknown): Promise<Account> {
  const { email, password, name } = validateInput(SignUpInput, input);
  let account: Account;
  try {
    account = await ctx.store.accounts.create({ email, ...(name ? { name } : {}) });
  } catch (err) {
    if (isStoreError(err, 'duplicate')) throw invalid('email_taken', 'An account with this email exists; sign in instead.', 'email');
    throw err;
  }
  await setPassword(ctx, account.id, password);
  return account;
}

/** Sets (or replaces) the password of an existing account. */
export async function setPassword(ctx: AccountsContext, accountId: string, password: string): Promise<void> {
  validateInput(SignUpInput, { email: 'a@b', password });
  const docs = ctx.store.documents<PasswordDoc>(PASSWORDS);
  const hash = await hashPassword(password);
  const existing = await docs.getByKey(accountId, 'password');
  if (existing) await docs.update(accountId, existing.id, { hash });
  else await docs.create(accountId, { hash }, { key: 'password' });
}

const tooMany = (retryAfterSeconds: number): UseCaseError => new UseCaseError('rate_limited', 'rate_limit_error', 'too_many_sign_in_attempts',
  'Too many failed sign-ins; wait before trying again.', { retryable: true, retryAfterSeconds });

/** Counts failures per key in a fixed window; returns the seconds to wait when over the limit. */
async function failuresOver(ctx: AccountsContext, key: string, limit: number): Promise<number | null> {
  const doc = await ctx.store.documents<FailureDoc>(THROTTLE).getByKey(SYSTEM, key);
  if (!doc) return null;
  const until = Date.parse(doc.data.since) + SIGN_IN_LIMITS.windowMs - ctx.now().getTime();
  return until > 0 && doc.data.count >= limit ? Math.ceil(until / 1000) : null;
}

/** The wait after `count` failures of one email from one address (0 while under perPair). */
export function pairWaitMs(count: number): number {
  const { perPair, firstWaitMs, maxWaitMs } = SIGN_IN_LIMITS;
  return count < perPair ? 0 : Math.min(maxWaitMs, firstWaitMs * 2 ** Math.min(count - perPair, 20));
}

/** Seconds one email must wait at one address (backoff after its last failure), or null. */
async function pairLocked(ctx: AccountsContext, key: string): Promise<number | null> {
  const doc = await ctx.store.documents<FailureDoc>(THROTTLE).getByKey(SYSTEM, key);
  if (!doc) return null;
  const last = Date.parse(doc.data.last ?? doc.data.since);
  const until = last + pairWaitMs(doc.data.count) - ctx.now().getTime();
  return until > 0 ? Math.ceil(until / 1000) : null;
}

/** One more failure of `key`: fixed windows count from their first failure, pairs from their last. */
async function recordFailure(ctx: AccountsContext, key: string, kind: 'window' | 'pair'): Promise<void> {
  const docs = ctx.store.documents<FailureDoc>(THROTTLE);
  const now = ctx.now();
  const at = now.toISOString();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const doc = await docs.getByKey(SYSTEM, key);
    try {
      if (!doc) { await docs.create(SYSTEM, { count: 1, since: at, last: at }, { key }); return; }
      const fresh = kind === 'window'
        ? Date.parse(doc.data.since) + SIGN_IN_LIMITS.windowMs <= now.getTime()
        : Date.parse(doc.data.last ?? doc.data.since) + SIGN_IN_LIMITS.forgetMs <= now.getTime();
      await docs.update(SYSTEM, doc.id, fresh ? { count: 1, since: at, last: at } : { ...doc.data, count: doc.data.count + 1, last: at }, { expectedVersion: doc.version });
      return;
    } catch (err) {
      if (!isStoreError(err, 'conflict') && !isStoreError(err, 'duplicate')) throw err;
    }
  }
}

async function forget(ctx: AccountsContext, key: string): Promise<void> {
  const docs = ctx.store.documents<FailureDoc>(THROTTLE);
  const doc = await docs.getByKey(SYSTEM, key);
  if (doc) await docs.delete(SYSTEM, doc.id);
}

/** Whether the account signed in from this address within knownAddressMs. */
async function knownAddress(ctx: AccountsContext, key: string): Promise<boolean> {
  const doc = await ctx.store.documents<KnownDoc>(THROTTLE).getByKey(SYSTEM, key);
  return !!doc && Date.parse(doc.data.at) + SIGN_IN_LIMITS.knownAddressMs > ctx.now().getTime();
}

async function noteKnownAddress(ctx: AccountsContext, key: string): Promise<void> {
  const docs = ctx.store.documents<KnownDoc>(THROTTLE);
  const at = ctx.now().toISOString();
  const doc = await docs.getByKey(SYSTEM, key);
  try {
    if (doc) await docs.update(SYSTEM, doc.id, { at });
    else await docs.create(SYSTEM, { at }, { key });
  } catch (err) {
    if (!isStoreError(err, 'duplicate') && !isStoreError(err, 'conflict')) throw err; // another sign-in noted it
  }
}

/**
 * Checks the email and password and opens a session. The same error for an unknown email and a
 * wrong password; while a lock holds (SIGN_IN_LIMITS) no password is checked at all.
 */
export async function signIn(ctx: AccountsContext, input: unknown): Promise<{ sessionToken: string; accountId: string; expiresAt: string }> {
  const { email, password, client_ip } = validateInput(SignInInput, input);
  const emailId = sha256Id(email.trim().toLowerCase());
  const emailKey = `email:${emailId}`;
  // an IPv6 client by its /64, as the request rate limit counts it
  const address = client_ip ? addressSubject(client_ip) : 'unknown';
  const addressKey = client_ip ? address : null;
  const pairKey = `pair:${emailId}:${address}`;
  const knownKey = `known:${emailId}:${address}`;
  const wait = (await pairLocked(ctx, pairKey))
    ?? (addressKey ? await failuresOver(ctx, addressKey, SIGN_IN_LIMITS.perAddress) : null)
    ?? (client_ip && await knownAddress(ctx, knownKey) ? null : await failuresOver(ctx, emailKey, SIGN_IN_LIMITS.perEmail));
  if (wait !== null) throw tooMany(wait);
  const account = await ctx.store.accounts.findByEmail(email.trim().toLowerCase());
  const stored = account ? await ctx.store.documents<PasswordDoc>(PASSWORDS).getByKey(account.id, 'password') : null;
  const ok = stored ? await verifyPassword(password, stored.data.hash) : (await verifyPassword(password, await DECOY), false);
  if (!ok || !account) {
    await recordFailure(ctx, pairKey, 'pair');
    await recordFailure(ctx, emailKey, 'window');
    if (addressKey) await recordFailure(ctx, addressKey, 'window');
    throw new UseCaseError('unauthenticated', 'authentication_error', 'invalid_credentials', 'The email or password is not right.');
  }
  await forget(ctx, pairKey);
  if (client_ip) await noteKnownAddress(ctx, knownKey);
  const sessionToken = randomBytes(32).toString('base64url');
  const expiresAt = new Date(ctx.now().getTime() + SESSION_TTL_MS).toISOString();
  await ctx.store.documents<SessionDoc>(SESSIONS).create(account.id, { expiresAt }, { id: sha256Id(sessionToken) });
  await dropExpiredSessions(ctx, account.id);
  return { sessionToken, accountId: account.id, expiresAt };
}

/** The person behind a session cookie, with every scope (it is their own account), or null. */
export async function sessionCaller(ctx: AccountsContext, sessionToken: string | null | undefined): Promise<{ caller: Caller; email: string } | null> {
  if (!sessionToken || sessionToken.length > 100) return null;
  const doc = await ctx.store.documents<SessionDoc>(SESSIONS).getUnscoped(sha256Id(sessionToken));
  if (!doc || Date.parse(doc.data.expiresAt) <= ctx.now().getTime()) return null;
  const account = await ctx.store.accounts.get(doc.accountId);
  if (!account) return null;
  return { caller: { accountId: account.id, scopes: SCOPES, via: 'session', credentialId: doc.id.slice(0, 12), operator: false }, email: account.email };
}

export async function signOut(ctx: AccountsContext, sessionToken: string | null | undefined): Promise<void> {
  if (!sessionToken || sessionToken.length > 100) return;
  const docs = ctx.store.documents<SessionDoc>(SESSIONS);
  const doc = await docs.getUnscoped(sha256Id(sessionToken));
  if (doc) await docs.delete(doc.accountId, doc.id);
}

/** Expired sessions of one account looked at per sign-in (a sign-in adds one; this keeps the count bounded). */
const EXPIRED_SESSIONS_PER_SIGN_IN = 100;

/** A session nobody signed out of stays until it expires; each sign-in removes the account's expired ones. */
async function dropExpiredSessions(ctx: AccountsContext, accountId: string): Promise<void> {
  const docs = ctx.store.documents<SessionDoc>(SESSIONS);
  const page = await docs.list(accountId, { limit: EXPIRED_SESSIONS_PER_SIGN_IN, order: 'asc' });
  const now = ctx.now().getTime();
  for (const doc of page.items) if (Date.parse(doc.data.expiresAt) <= now) await docs.delete(accountId, doc.id);
}

/** Whether a throttle record no longer holds anything back at `now` (ms): its windows and waits are over. */
function throttleStale(doc: DocumentRecord<FailureDoc | KnownDoc>, now: number): boolean {
  const d = doc.data as Partial<FailureDoc & KnownDoc>;
  if (d.at !== undefined) return Date.parse(d.at) + SIGN_IN_LIMITS.knownAddressMs <= now;
  const since = Date.parse(d.since ?? '');
  const last = Date.parse(d.last ?? d.since ?? '');
  if (Number.isNaN(since) || Number.isNaN(last)) return true;
  return since + SIGN_IN_LIMITS.windowMs <= now && last + Math.max(SIGN_IN_LIMITS.forgetMs, SIGN_IN_LIMITS.maxWaitMs) <= now;
}

/**
 * One janitor pass over the sign-in throttle: failures whose window and wait are over, and addresses
 * an account last signed in from longer ago than knownAddressMs. Without it every guessed email and
 * every address that ever failed would stay in the store for good.
 */
export async function pruneSignInRecords(store: Store, now: Date, cursors: PruneCursors = new Map()): Promise<number> {
  const at = now.getTime();
  return sweepOwned(THROTTLE, store.documents<FailureDoc | KnownDoc>(THROTTLE), SYSTEM, cursors, (doc) => throttleStale(doc, at));
}
