// One thread table (engine/src/hardware/threads.ts) for the catalog's taps and the hardware shape
// reader: every tap the catalog sells is a thread the shape reader knows, with the same figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCatalog } from '../src/catalog/index.ts';
import { majorDiameterOf, threadOfDiameter } from '../src/hardware/index.ts';
import { THREADS } from '../src/hardware/threads.ts';

test('every catalog tap is a row of the one thread table: same size name, major diameter and tap drill', () => {
  const taps = defaultCatalog().taps;
  assert.ok(taps.length >= 15);
  for (const tap of taps) {
    const row = THREADS.find((t) => t.thread === tap.thread);
    assert.ok(row, `${tap.thread} is in the thread table`);
    assert.equal(tap.size, row.size);
    assert.equal(tap.major_diameter_mm, Number(row.majorMm.toFixed(3)));
    assert.equal(tap.tap_drill_mm, Number(row.tapDrillMm.toFixed(3)));
    // the shape reader names the same size and gives the same major diameter (10-24 and 1/4-28 included)
    const major = majorDiameterOf(tap.size);
    assert.ok(major !== null, `the shape reader knows ${tap.size}`);
    assert.equal(Number(major.toFixed(3)), tap.major_diameter_mm, tap.size);
  }
});

test('a bore at a metric tap drill is read as that tap\'s thread; a unified one where no metric thread is that size', () => {
  for (const tap of defaultCatalog().taps.filter((t) => t.thread_standard === 'metric')) {
    assert.equal(threadOfDiameter(tap.tap_drill_mm), tap.size, tap.thread);
  }
  assert.equal(threadOfDiameter(6.35, false), '1/4-20'); // a plain 1/4" shank: the coarse thread
  assert.equal(threadOfDiameter(4.826, false), '#10-32');
  assert.equal(threadOfDiameter(12, false), 'M12');
});
