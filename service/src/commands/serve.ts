// `kerf serve` (what `npm start` runs): the HTTP service with its job workers.
import { stdout } from 'node:process';
import { configFromEnv } from '../config.ts';
import { ensureDemoAccount } from '@kerf/store';
import { startService } from '../runtime.ts';

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    stdout.write('usage: kerf serve\nconfiguration from the environment: PORT, KERF_DATA_DIR, KERF_BASE_URL, MONGODB_URL, KERF_MAX_UPLOAD_BYTES, KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK (README: Configuration)\n');
    return 0;
  }
  const config = configFromEnv();
  const service = await startService(config);
  const demo = await ensureDemoAccount(service.store);
  if (demo) {
    // Shown once: the store keeps only the key's hash.
    stdout.write(`${JSON.stringify({ demo_account: demo.account_id, api_key: demo.api_key })}\n`);
    service.log.info({ account_id: demo.account_id }, 'created the demo account (its API key is printed on stdout once)');
  }
  const address = await service.listen();
  service.log.info({ address, base_url: config.baseUrl, store: service.store.kind }, 'kerf listening');

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) { service.log.warn({ signal }, 'second signal: exiting now'); process.exit(1); }
      stopping = true;
      service.log.info({ signal }, 'signal received');
      service.close().then(() => resolve(0), (err: unknown) => { service.log.error({ err }, 'shutdown failed'); resolve(1); });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}
