// BoundedMap (every in-process cache of the store, the use cases and the service): at most `max` entries, the
// least recently used dropped first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedMap } from '@kerf/common';

describe('BoundedMap', () => {
  it('drops the least recently used entry past its bound; a read counts as a use', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    assert.equal(m.get('a'), 1); // b is now the least recently used
    m.set('c', 3);
    assert.equal(m.get('b'), undefined);
    assert.equal(m.get('a'), 1);
    assert.equal(m.get('c'), 3);
    m.set('a', 10); // a replaced value is not a second entry
    m.set('d', 4);
    assert.equal(m.get('c'), undefined);
    assert.equal(m.get('a'), 10);
    assert.equal(m.get('d'), 4);
    assert.equal(m.delete('a'), true);
    assert.equal(m.delete('a'), false);
    m.set('e', 5); // the deleted entry's room: d stays
    assert.equal(m.get('d'), 4);
    assert.equal(m.get('a'), undefined);
  });
});
