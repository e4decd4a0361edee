// jsonTextApart(): a document's text with the long texts of the values its writer named apart taken
// out, each leaving an empty object or array; joined back, JSON.stringify's text exactly.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { joinTextsApart, jsonTextApart, MIN_TEXT_APART } from '../src/common/json.ts';

const textOf = (v: object): { text: string; hash: string } => {
  const text = JSON.stringify(v);
  return { text, hash: createHash('sha256').update(text).digest('base64url') };
};

describe('jsonTextApart', () => {
  it('long named texts out, an empty object or array in their place; joined back, JSON.stringify exactly', () => {
    const long = 'é'.repeat(MIN_TEXT_APART);
    const lines = Object.freeze([{ part: 'p1', note: long }]);
    const fulfillment = Object.freeze({ speed: 'standard', note: long });
    const small = Object.freeze({ q: 1 });
    const unnamed = { note: long };
    const quote = { id: 'quo_1', items: [{ line_items: lines, small }, { line_items: lines }], fulfillment, unnamed, note: '{}[]', look: 'kerf-apart-0' };
    const named = new Set<object>([lines, fulfillment, small]);
    const { text, apart } = jsonTextApart(quote, 'data', named, textOf);
    assert.deepEqual(JSON.parse(text), { id: 'quo_1', items: [{ line_items: [], small: { q: 1 } }, { line_items: [] }], fulfillment: {}, unnamed, note: '{}[]', look: 'kerf-apart-0' });
    assert.equal(apart.length, 3);
    assert.equal(apart[0].hash, apart[1].hash, 'one text, one name');
    assert.notEqual(apart[0].hash, apart[2].hash);
    assert.deepEqual(apart.map((a) => text.slice(a.at, a.at + 2)), ['[]', '[]', '{}']);
    assert.equal(joinTextsApart(text, apart), JSON.stringify(quote));
    // a value named whole, nothing named, or nothing long named: one text
    assert.deepEqual(jsonTextApart(fulfillment, 'data', named, textOf), { text: JSON.stringify(fulfillment), apart: [] });
    assert.deepEqual(jsonTextApart(quote, 'data', undefined, textOf), { text: JSON.stringify(quote), apart: [] });
    assert.deepEqual(jsonTextApart({ small }, 'data', named, textOf), { text: '{"small":{"q":1}}', apart: [] });
    assert.throws(() => jsonTextApart({ n: 1n }, 'data', named, textOf), /data is not JSON-serialisable/);
    assert.throws(() => jsonTextApart({ n: 1n }, 'data', undefined, textOf), /data is not JSON-serialisable/);
  });
});
