// Set-up shared by the crash tests of paying (commerce, dropship): a group of `kerf serve` children
// on one data dir, a JSON caller with a bearer key, and a demo account with a card on file and a
// ready design.
import assert from 'node:assert/strict';
import type { Store } from '@kerf/store';
import { stepForm } from './client.ts';
import { spawnServe, type ChildService } from './child.ts';
import { freePort } from './service.ts';
import { until } from './wait.ts';

export type Json = Record<string, any>;

const L_BRACKET = new URL('../../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;

/** One JSON request; `idem` becomes the Idempotency-Key header. */
export async function call(url: string, key: string, method: string, path: string, body?: unknown, idem?: string): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idem) headers['idempotency-key'] = idem;
  const r = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Json };
}

/** Starts `kerf serve` with `env` (plus `extra`) and records it in `children` for the after() hook to kill. */
export function starter(env: Record<string, string>, children: ChildService[]): (extra?: Record<string, string>) => Promise<ChildService> {
  return async (extra = {}) => {
    const child = await spawnServe({ ...env, ...extra }, await freePort());
    children.push(child);
    return child;
  };
}

/** The processor's payment intents (with their ids) that `match` picks. */
export async function processorPayments(store: Store, match: (p: Json) => boolean): Promise<Json[]> {
  const page = await store.documents<Json>('payment_intents').list('payment_processor', { limit: 1000 });
  return page.items.map((r): Json => ({ ...r.data, id: r.id })).filter(match);
}

/** Saves a test card through the account's hosted setup page and uploads the L bracket; answers the ready design. */
export async function cardAndReadyDesign(url: string, key: string): Promise<Json> {
  const setup = (await call(url, key, 'GET', '/v1/account')).body.payment_method_setup_url as string;
  const saved = await fetch(setup, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payment_method=pm_card_visa' });
  assert.equal(saved.status, 200);
  const up = await fetch(`${url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}`, prefer: 'wait=60' }, body: stepForm(L_BRACKET, {}, 'l.step') });
  const design = (await up.json()) as Json;
  await until('the design', async () => (await call(url, key, 'GET', `/v1/designs/${design.id}`)).body.status === 'ready', 60_000);
  return design;
}
