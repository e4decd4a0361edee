// `kerf serve` (what `npm start` runs): the HTTP service with its job workers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stdout } from 'node:process';
import { availableParallelism } from 'node:os';
import { ConfigError, configFromEnv } from '../config.ts';
import { DEMO_ACCOUNT_EMAIL, ensureDemoAccount } from '@kerf/store';
import { setPassword } from '@kerf/usecases';
import { randomBytes } from 'node:crypto';
import { startService } from '../runtime.ts';
import { printHelp } from './help.ts';
import pino from 'pino';
import { isClusterPrimary, leaveCluster, superviseWorkers } from '../cluster.ts';

/** Where a service started without a terminal leaves the demo account's key (mode 0600, in the data dir). */
const DEMO_KEY_FILE = 'demo-api-key.json';

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) return printHelp('serve');
  const config = configFromEnv();
  const processes = processesArg(args) ?? config.workers;
  if (processes > 1 && isClusterPrimary()) return superviseWorkers(processes, pino({ level: config.logLevel }));
  const service = await startService(config);
  const demo = await ensureDemoAccount(service.store);
  if (demo) {
    // Shown once (the store keeps only the key's hash): on a terminal, or else in a file only the
    // service's user can read, never in logs that are collected and shipped.
    if (stdout.isTTY) {
      // the person at this terminal can open the web site at once: a password of its own, shown
      // once beside the key (a service without a terminal gives the demo account no password)
      const password = randomBytes(12).toString('base64url');
      await setPassword(service.ctx, demo.account_id, password);
      const web = { sign_in_url: `${config.baseUrl}/signin`, email: DEMO_ACCOUNT_EMAIL, password };
      stdout.write(`${JSON.stringify({ demo_account: demo.account_id, api_key: demo.api_key, web })}\n`);
      stdout.write(`Open ${web.sign_in_url} and sign in as ${web.email} with password ${password} (shown once)\n`);
      service.log.info({ account_id: demo.account_id }, 'created the demo account (its API key and web password are printed above, once)');
    } else if (!config.mongodbUrl) {
      const file = join(config.dataDir, DEMO_KEY_FILE);
      writeFileSync(file, `${JSON.stringify({ demo_account: demo.account_id, api_key: demo.api_key })}\n`, { mode: 0o600 });
      service.log.info({ account_id: demo.account_id, file }, 'created the demo account (its API key is in this file, readable by this user only)');
    } else {
      service.log.info({ account_id: demo.account_id }, 'created the demo account; no terminal to show its key: make one with kerf admin create-api-key --email demo@kerf.local');
    }
  }
  let address: string;
  try {
    address = await service.listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    // the first thing a second `npm start` meets: say what to change, not a stack trace
    await service.close();
    process.stderr.write(`${JSON.stringify({ error: { code: 'port_in_use', message: portInUse(config.port), param: 'PORT' } })}\n`);
    return 1;
  }
  service.log.info({ address, base_url: config.baseUrl, store: service.store.kind }, 'kerf listening');

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) { service.log.warn({ signal }, 'second signal: exiting now'); process.exit(1); }
      stopping = true;
      service.log.info({ signal }, 'signal received');
      service.close().then(() => { leaveCluster(); resolve(0); }, (err: unknown) => { service.log.error({ err }, 'shutdown failed'); resolve(1); });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

/** What a start on a taken port says (the README's Quick start quotes it). */
export function portInUse(port: number): string {
  return `port ${port} is in use: set PORT (PORT=${port + 1} npm start) or stop what listens there`;
}

/** --processes N (or auto): overrides KERF_WORKERS. */
function processesArg(args: string[]): number | undefined {
  const i = args.indexOf('--processes');
  if (i < 0) return undefined;
  const raw = args[i + 1] ?? '';
  if (raw === 'auto') return availableParallelism();
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new ConfigError(`--processes must be an integer in 1..64 or auto, got '${raw}'`);
  return n;
}
