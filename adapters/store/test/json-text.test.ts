// jsonText(): JSON.stringify's text exactly, with the kept texts of frozen values spliced in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonPayload, jsonText, keepJsonText } from '../src/index.ts';
import { joinTextsApart, jsonTextApart, MIN_TEXT_APART } from '../src/common/json.ts';

describe('jsonText', () => {
  it('writes what JSON.stringify writes, with a kept value anywhere in the tree', () => {
    const report = Object.freeze(keepJsonText({ id: 'dfm_1', parts: [{ a: 1, b: 'é "quoted" \\ \u2028' }], n: null }));
    const quote = { id: 'quo_1', items: [{ dfm: report, q: 2 }, { dfm: report }], report, list: [report, 1, 'x'] };
    const expected = JSON.stringify(JSON.parse(JSON.stringify({ ...quote, items: quote.items.map((i) => ({ ...i, dfm: { ...report } })) })));
    assert.equal(jsonText(quote), expected);
    assert.equal(jsonText(report), JSON.stringify({ ...report }));
    assert.equal(JSON.stringify(quote), expected, 'plain JSON.stringify sees the value itself');
  });

  it('writes the text kept when the value was kept (made once, not per call)', () => {
    // a caller must never change a kept value; one that does shows that the kept text is what is written
    const value = keepJsonText({ n: 1 });
    value.n = 2;
    assert.equal(jsonText({ value }), '{"value":{"n":1}}');
    assert.equal(JSON.stringify({ value }), '{"value":{"n":2}}');
  });

  it('jsonPayload: the same JSON as UTF-8 bytes, kept texts spliced as bytes; the plain string when nothing is kept', () => {
    const report = Object.freeze(keepJsonText({ id: 'dfm_1', parts: [{ b: 'é "quoted" \u2028 ✓' }] }));
    const quote = { id: 'quo_é', items: [{ dfm: report, q: 2 }, { dfm: report }], tail: '✓' };
    const payload = jsonPayload(quote);
    assert.ok(Buffer.isBuffer(payload));
    assert.deepEqual(payload, Buffer.from(jsonText(quote), 'utf8'));
    assert.deepEqual(jsonPayload(quote), payload, 'again, from the bytes kept');
    assert.equal(jsonPayload({ plain: 'é' }), '{"plain":"é"}');
  });

  it('leaves data that looks like a splice point alone', () => {
    const kept = Object.freeze(keepJsonText({ k: 1 }));
    // whatever a caller sends, it cannot name the per-process mark, and digits after a quote stay data
    const value = { a: 'kerf-json-0', b: kept, c: '"0"', d: ['kerf-json-', 0] };
    assert.deepEqual(JSON.parse(jsonText(value)), { a: 'kerf-json-0', b: { k: 1 }, c: '"0"', d: ['kerf-json-', 0] });
  });

  it('copies of a kept value carry no kept text (their own fields are written)', () => {
    const kept = Object.freeze(keepJsonText({ k: 1, s: 'a' }));
    const copy = { ...kept, s: 'b' };
    assert.equal(jsonText({ copy }), '{"copy":{"k":1,"s":"b"}}');
    assert.deepEqual(Object.keys(kept), ['k', 's']);
  });

  it('answers undefined where JSON.stringify does, and throws what it throws', () => {
    assert.equal(jsonText(undefined), undefined);
    assert.throws(() => jsonText({ n: 1n }), TypeError);
    // after a throw, later calls still splice
    const kept = Object.freeze(keepJsonText({ k: 2 }));
    assert.equal(jsonText([kept]), '[{"k":2}]');
  });

  it('jsonTextApart: long kept texts out, an empty object or array in their place; joined back, jsonText exactly', () => {
    const long = 'é'.repeat(MIN_TEXT_APART);
    const lines = Object.freeze(keepJsonText([{ part: 'p1', note: long }]));
    const fulfillment = Object.freeze(keepJsonText({ speed: 'standard', note: long }));
    const small = Object.freeze(keepJsonText({ q: 1 }));
    const quote = { id: 'quo_1', items: [{ line_items: lines, small }, { line_items: lines }], fulfillment, note: '{}[]' };
    const { text, apart } = jsonTextApart(quote, 'data');
    assert.deepEqual(JSON.parse(text), { id: 'quo_1', items: [{ line_items: [], small: { q: 1 } }, { line_items: [] }], fulfillment: {}, note: '{}[]' });
    assert.equal(apart.length, 3);
    assert.equal(apart[0].hash, apart[1].hash, 'one text, one name');
    assert.notEqual(apart[0].hash, apart[2].hash);
    assert.deepEqual(apart.map((a) => text.slice(a.at, a.at + 2)), ['[]', '[]', '{}']);
    assert.equal(joinTextsApart(text, apart), jsonText(quote));
    // a value kept whole, or with nothing long kept, stays one text
    assert.deepEqual(jsonTextApart(fulfillment, 'data'), { text: jsonText(fulfillment), apart: [] });
    assert.deepEqual(jsonTextApart({ small }, 'data'), { text: '{"small":{"q":1}}', apart: [] });
    assert.throws(() => jsonTextApart({ n: 1n }, 'data'), /data is not JSON-serialisable/);
  });
});
