// The rate limit's rule, called as functions: who a request counts against (an IPv6 client by its
// /64, an IPv4-mapped address as the IPv4 one, a signed link only when it verifies) and the
// in-process counters' bound (a flood of new keys never resets a live key's count).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { requestSubject, signedLinkSubject } from '@kerf/http';
import { addressSubject, boundedRateCounters, RateLimiter, UrlSigner, UseCaseError } from '@kerf/usecases';

describe('rate limit subjects', () => {
  it('counts an IPv6 client by its /64, however the address is written', () => {
    const block = addressSubject('2001:db8:a:b::1');
    assert.equal(block, 'ip6:2001:db8:a:b');
    assert.equal(addressSubject('2001:0DB8:000a:000b:ffff:1:2:3'), block);
    assert.notEqual(addressSubject('2001:db8:a:c::1'), block, 'the next /64 is another subscriber');
    assert.equal(addressSubject('::ffff:192.0.2.7'), addressSubject('192.0.2.7'), 'IPv4-mapped is the IPv4 client');
  });

  it('a verified caller counts against its account, anyone else against the address', () => {
    assert.equal(requestSubject({ accountId: 'acct_1' }, '192.0.2.7'), 'acct:acct_1');
    assert.equal(requestSubject(null, '192.0.2.7'), 'ip:192.0.2.7');
  });

  it('a signed link is a subject only when its signature verifies', () => {
    const signer = new UrlSigner(randomBytes(32));
    const token = signer.sign({ k: 'uploads/upl_1', t: 'x', n: 'upl_1' });
    assert.match(signedLinkSubject(signer, token) ?? '', /^link:[0-9a-f]{32}$/);
    assert.equal(signedLinkSubject(signer, `${token.slice(0, -2)}xx`), null);
    assert.equal(signedLinkSubject(new UrlSigner(randomBytes(32)), token), null, 'another secret');
    assert.equal(signedLinkSubject(signer, undefined), null);
  });
});

describe('in-process counters', () => {
  it('keep live keys when full: new keys share one overflow count', async () => {
    let now = 0;
    const counters = boundedRateCounters(3, () => now);
    const limiter = new RateLimiter({ max: 2, windowMs: 1000 }, counters);
    await limiter.take('live');
    for (let i = 0; i < 10; i++) await counters.hit(`req:flood-${i}`, 1000);
    await limiter.take('live');
    await assert.rejects(limiter.take('live'), (err: unknown) => err instanceof UseCaseError && err.code === 'rate_limit_exceeded' && err.retryAfterSeconds === 1);
    now = 1000;
    assert.equal((await limiter.take('live')).remaining, 1, 'a new window once the old one ended');
  });
});
