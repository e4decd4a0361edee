// The quote page offers acceptance beside each finding an accepted_risks value covers, including a
// finding accepted through another code's value: press-in hardware near a bend is accepted as
// hole_too_close_to_bend, which the engine's finding names in details.accepted_as (the finding below
// is as engine/test/dfm.test.ts "hardware_too_close_to_bend: with the head on flat sheet" gets it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { html, raw } from '../src/html.ts';
import { quotePage } from '../src/shop-pages.ts';

const ACCEPTABLE = ['hole_too_close_to_bend', 'countersink_too_close_to_bend'];

const page = (accepted: string[]): string => {
  const issue = {
    code: 'hardware_too_close_to_bend', severity: 'warning', accepted: accepted.includes('hole_too_close_to_bend'), source: 'configuration',
    message: 'Hole 1 centre is 7.5 mm from bend 1; below 8.64 mm (edge distance + thickness + radius) the bend may distort the hole.',
    part_id: 'prt_bracket', hole_id: 1, bend_id: 1, operation: 'stud',
    details: { id: 'std_fh_m3_8', center_to_bend_mm: 7.5, min_center_to_bend_mm: 8.644, accepted_as: 'hole_too_close_to_bend' },
  };
  const quote = { status: issue.accepted ? 'ready' : 'blocked', items: [{ dfm: { parts: [{ part_id: 'prt_bracket', issues: [issue] }] }, line_items: [], quantity_options: [] }] };
  return quotePage({ email: 'a@example.com', csrf: 'x', quote, designName: 'bracket', partNames: {}, stockNames: {}, configure: html`${raw('')}`, issueImages: [], acceptable: ACCEPTABLE, accepted });
};

test('quote page: a hardware_too_close_to_bend finding gets a box that accepts hole_too_close_to_bend, checked once accepted', () => {
  const box = /<input type="checkbox" form="configure" name="accepted_risks" value="([a-z_]+)"[^>]*>/g;
  const before = [...page([]).matchAll(box)];
  assert.deepEqual(before.map((m) => m[1]), ['hole_too_close_to_bend']);
  assert.ok(!before[0][0].includes('checked'));
  const after = [...page(['hole_too_close_to_bend']).matchAll(box)];
  assert.ok(after[0][0].includes('checked'));
});
