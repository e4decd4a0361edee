// The quote cache's kept JSON texts: jsonPayload() writes JSON.stringify's text exactly, as UTF-8,
// with the kept text of a value that never changes spliced in wherever that value stands.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonPayload, keepJsonText } from '../src/dfm/quote-cache.ts';

const text = (value: unknown): string => String(jsonPayload(value));

describe('kept JSON texts', () => {
  it('writes what JSON.stringify writes, with a kept value anywhere in the tree', () => {
    const report = Object.freeze(keepJsonText({ id: 'dfm_1', parts: [{ a: 1, b: 'é "quoted" \\ \u2028' }], n: null }));
    const quote = { id: 'quo_1', items: [{ dfm: report, q: 2 }, { dfm: report }], report, list: [report, 1, 'x'] };
    const expected = JSON.stringify(JSON.parse(JSON.stringify({ ...quote, items: quote.items.map((i) => ({ ...i, dfm: { ...report } })) })));
    assert.equal(text(quote), expected);
    assert.equal(text(report), JSON.stringify({ ...report }), 'a kept value itself');
    assert.equal(JSON.stringify(quote), expected, 'plain JSON.stringify sees the value itself');
  });

  it('writes the text kept when the value was kept (made once, not per call)', () => {
    // a caller must never change a kept value; one that does shows that the kept text is what is written
    const value = keepJsonText({ n: 1 });
    value.n = 2;
    assert.equal(text({ value }), '{"value":{"n":1}}');
    assert.equal(JSON.stringify({ value }), '{"value":{"n":2}}');
  });

  it('the same JSON as UTF-8 bytes, kept texts spliced as bytes; the plain string when nothing is kept', () => {
    const report = Object.freeze(keepJsonText({ id: 'dfm_1', parts: [{ b: 'é "quoted" \u2028 ✓' }] }));
    const quote = { id: 'quo_é', items: [{ dfm: report, q: 2 }, { dfm: report }], tail: '✓' };
    const payload = jsonPayload(quote);
    assert.ok(Buffer.isBuffer(payload));
    assert.deepEqual(payload, Buffer.from(JSON.stringify(quote), 'utf8'));
    assert.deepEqual(jsonPayload(quote), payload, 'again, from the bytes kept');
    assert.equal(jsonPayload({ plain: 'é' }), '{"plain":"é"}');
  });

  it('leaves data that looks like a splice point alone', () => {
    const kept = Object.freeze(keepJsonText({ k: 1 }));
    // whatever a caller sends, it cannot name the per-process mark, and digits after a quote stay data
    const value = { a: 'kerf-json-0', b: kept, c: '"0"', d: ['kerf-json-', 0] };
    assert.deepEqual(JSON.parse(text(value)), { a: 'kerf-json-0', b: { k: 1 }, c: '"0"', d: ['kerf-json-', 0] });
  });

  it('copies of a kept value carry no kept text (their own fields are written), and keeping adds no field', () => {
    const kept = Object.freeze(keepJsonText({ k: 1, s: 'a' }));
    const copy = { ...kept, s: 'b' };
    assert.equal(text({ copy }), '{"copy":{"k":1,"s":"b"}}');
    assert.deepEqual(Object.getOwnPropertyNames(kept), ['k', 's']);
  });

  it('answers undefined where JSON.stringify does, and throws what it throws', () => {
    assert.equal(jsonPayload(undefined), undefined);
    assert.throws(() => jsonPayload({ n: 1n }), TypeError);
    // after a throw, later calls still splice
    const kept = Object.freeze(keepJsonText({ k: 2, s: '✓' }));
    assert.deepEqual(jsonPayload([kept]), Buffer.from('[{"k":2,"s":"✓"}]', 'utf8'));
  });
});
