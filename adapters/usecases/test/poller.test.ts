// A pass that fails at every poll (a full disk: "database or disk is full" every 250 ms) is
// reported once a minute, with how often it recurred meanwhile; another failure is reported at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Poller, REPEATED_ERROR_REPORT_MS } from '../src/core/poller.ts';

test('the same failure is reported once a minute at most, with its repeat count; a different one at once', async () => {
  let now = 0;
  let message = 'database or disk is full';
  const reports: Array<{ message: string; repeated?: number }> = [];
  const poller = new Poller(async () => { throw new Error(message); }, 2, (err) => {
    reports.push({ message: (err as Error).message, repeated: (err as { repeated_since_last_report?: number }).repeated_since_last_report });
  }, () => now);
  const passes = async (n: number) => { for (let i = 0; i < n; i++) { poller.wake(); await new Promise((r) => setTimeout(r, 5)); } };
  poller.start();
  await passes(20);
  assert.equal(reports.length, 1);
  now += REPEATED_ERROR_REPORT_MS;
  await passes(1);
  assert.equal(reports.length, 2);
  assert.ok((reports[1].repeated ?? 0) >= 19, JSON.stringify(reports[1]));
  message = 'something else';
  await passes(1);
  assert.equal(reports.length, 3);
  assert.equal(reports[2].message, 'something else');
  await poller.stop();
});
