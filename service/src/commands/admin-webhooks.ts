// `kerf admin webhook redeliver ...`: the operator sends every failed delivery of one endpoint since a
// time again (after a receiver's outage), through the same use case as an account's single
// redelivery, against the configured store. The deliveries are jobs in the store: a running service
// sends them.
import { parseArgs } from 'node:util';
import { stderr } from 'node:process';
import { redeliverFailedSince } from '@kerf/usecases';
import { fail, OPERATOR, runOperatorAction } from './operator-cli.ts';

export const WEBHOOK_USAGE = `  kerf admin webhook redeliver ENDPOINT_ID --since ISO_TIME
      sends every delivery to the endpoint that ended failed at or after the time again (each once);
      prints the new deliveries' first attempts ({object:"list",data}).
`;

export async function runWebhook(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { since: { type: 'string' } } });
  } catch (err) {
    return fail('invalid_arguments', (err as Error).message, 2);
  }
  const [action, endpointId, ...extra] = parsed.positionals as [string?, string?, ...string[]];
  if (action !== 'redeliver' || !endpointId || extra.length || parsed.values.since === undefined) {
    stderr.write(`usage:\n${WEBHOOK_USAGE}`);
    return 2;
  }
  const since = parsed.values.since;
  return runOperatorAction((ctx) => redeliverFailedSince(ctx, OPERATOR, { endpoint_id: endpointId, since }));
}
