// The text an agent reads of a quote: a total only when the quote is ready; a blocked or incomplete
// quote states no figure that could be read as its price.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quoteText } from '../src/tools.ts';

const quote = (status: string): Record<string, unknown> => ({
  id: 'quo_1', status, amount_total_cents: 5000, amount_subtotal_cents: 5000, expires_at: '2026-12-01T00:00:00.000Z',
  items: [{ design_id: 'des_1', status, quantity: 2, amount_cents: 5000 }],
});

test('a ready quote states its total; a blocked or requires_input one states none', () => {
  assert.match(quoteText(quote('ready')), /^Quote quo_1 is ready: total \$50\.00/);
  for (const status of ['blocked', 'requires_input']) {
    const text = quoteText(quote(status));
    assert.doesNotMatch(text, /\$50\.00/, status);
    assert.match(text, new RegExp(`^Quote quo_1 is ${status}: no total until it is ready`), status);
  }
});
