// What `kerf admin order` and `kerf admin dropship` share: the machine's operator as caller, the JSON
// error line on stderr, and one run against the configured store and payment processor that prints
// the use case's answer and turns its refusal into an exit code (2 for bad input, 1 otherwise).
import { stderr, stdout } from 'node:process';
import { newId } from '@kerf/common';
import { paymentProcessorFromEnv } from '@kerf/payments';
import { restLinks } from '@kerf/rest/links';
import { openStore, storeConfigFromEnv, type Store } from '@kerf/store';
import { localCaller, UseCaseError, type Caller, type CommerceContext } from '@kerf/usecases';
import { configFromEnv } from '../config.ts';

/** The machine's operator: whoever can run the CLI against the store. */
export const OPERATOR: Caller = { ...localCaller(), operator: true };

export function fail(code: string, message: string, exit: number): number {
  stderr.write(JSON.stringify({ error: { code, message } }) + '\n');
  return exit;
}

/** Runs one operator action; `act` answers the value to print, or an exit code it already reported. */
export async function runOperatorAction(act: (ctx: CommerceContext, store: Store) => Promise<unknown>): Promise<number> {
  const config = configFromEnv();
  const store = await openStore(storeConfigFromEnv());
  const payments = paymentProcessorFromEnv({ store, baseUrl: config.baseUrl });
  const ctx: CommerceContext = { store, links: restLinks(config.baseUrl), now: () => new Date(), newId, payments, notifyJobs: () => {} };
  try {
    const out = await act(ctx, store);
    if (typeof out === 'number') return out;
    stdout.write(JSON.stringify(out) + '\n');
    return 0;
  } catch (err) {
    if (err instanceof UseCaseError) return fail(err.code, err.param ? `${err.param}: ${err.message}` : err.message, err.kind === 'invalid' ? 2 : 1);
    throw err;
  } finally {
    await payments.close();
    await store.close();
  }
}
