// Resource ids (`<prefix>_<time><random>`; opaque to callers, docs/api.md "Conventions"): their shape,
// ids made later sorting later, idOf giving the same id for the same parts, and pooled random bytes
// never handed out twice, across a refill of the pool.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idOf, newId, pooledRandomBytes } from '@kerf/common';

const ID = /^quo_[0-9a-hjkmnp-tv-z]{26}$/;

describe('newId', () => {
  it('is the prefix, 10 characters of time and 16 random ones (80 bits), in Crockford base32', () => {
    const id = newId('quo');
    assert.match(id, ID);
    assert.notEqual(newId('quo'), id, 'a second id is another');
  });

  it('sorts ids by the millisecond they were made in, also where the time part carries', () => {
    // 31 ms past a multiple of 32: one ms later the last time character wraps and the one before it moves
    const t = Date.parse('2026-01-01T00:00:00.000Z');
    const before = t - (t % 32) + 31;
    for (const [a, b] of [[before, before + 1], [t, t + 1], [t, t + 86_400_000]]) {
      const earlier = newId('quo', new Date(a)), later = newId('quo', new Date(b));
      assert.ok(earlier < later, `${earlier} < ${later}`);
    }
  });
});

describe('idOf', () => {
  it('gives the same id for the same time and bytes, and another for other bytes', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => i * 7);
    assert.equal(idOf('ord', 1_700_000_000_000, bytes), idOf('ord', 1_700_000_000_000, Uint8Array.from(bytes)));
    assert.match(idOf('ord', 1_700_000_000_000, bytes), /^ord_[0-9a-hjkmnp-tv-z]{26}$/);
    assert.notEqual(idOf('ord', 1_700_000_000_000, bytes), idOf('ord', 1_700_000_000_000, bytes.map((b) => b + 1)));
    assert.equal(idOf('x', 0, new Uint8Array(16)), `x_${'0'.repeat(26)}`);
    assert.equal(idOf('x', 32 + 1, new Uint8Array(16).fill(31)), `x_${'0'.repeat(8)}11${'z'.repeat(16)}`, 'time first, most significant character first');
  });
});

describe('pooledRandomBytes', () => {
  it('hands each byte of its pool out once, also across a refill', () => {
    // 300 draws of 16 bytes are more than one pool (4096 bytes): the pool is refilled on the way
    const draws = Array.from({ length: 300 }, () => pooledRandomBytes(16));
    const offsets = new Map<ArrayBufferLike, number[]>();
    for (const d of draws) {
      assert.equal(d.length, 16);
      offsets.set(d.buffer, [...(offsets.get(d.buffer) ?? []), d.byteOffset]);
    }
    // two draws sharing memory would give two ids the same random part
    for (const list of offsets.values()) {
      const sorted = [...list].sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i] - sorted[i - 1] >= 16, `draws at ${sorted[i - 1]} and ${sorted[i]} overlap`);
    }
    assert.equal(new Set(draws.map((d) => d.toString('hex'))).size, draws.length, 'no two draws alike');
  });
});
