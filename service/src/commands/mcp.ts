// `kerf mcp [--data-dir DIR] [--base-url URL]`: an MCP server on stdin/stdout for an agent on this
// machine, with the hosted server's tools, the engine in this process and the embedded store in the
// data directory (the one `kerf serve` uses by default, so links work once the service runs there).
// No service needs to run: prepare_upload takes a local file path. Logs go to stderr; stdout is the
// protocol's.
import { resolve as resolvePath } from 'node:path';
import { stderr, stdin } from 'node:process';
import pino from 'pino';
import { newId } from '@kerf/common';
import { isStoreError, openStore, type Store } from '@kerf/store';
import { restLinks } from '@kerf/rest/links';
import { serveMcpStdio } from '@kerf/mcp';
import { JobWorker, JOB_HANDLERS, loadSigningSecret, localCaller, UrlSigner, type Caller, type UseCaseContext } from '@kerf/usecases';
import { configFromEnv } from '../config.ts';
import { LocalEngine } from '../engine-local.ts';
import { printHelp } from './help.ts';

const USAGE = 'usage: kerf mcp [--data-dir DIR] [--base-url URL]\n  an MCP server on stdio (KERF_DATA_DIR, KERF_BASE_URL as for kerf serve)\n';
/** The account local work is kept under. */
const LOCAL_EMAIL = 'local@kerf.localhost';

function parseArgs(args: string[]): { dataDir?: string; baseUrl?: string } | 'help' | string {
  const out: { dataDir?: string; baseUrl?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].split(/=(.*)/s, 2);
    const value = (): string | undefined => inline ?? args[++i];
    if (name === '--help' || name === '-h') return 'help';
    if (name === '--data-dir') out.dataDir = value();
    else if (name === '--base-url') out.baseUrl = value();
    else return `unknown argument '${args[i]}'`;
    if ((name === '--data-dir' && !out.dataDir) || (name === '--base-url' && !out.baseUrl)) return `${name} needs a value`;
  }
  return out;
}

async function localAccount(store: Store): Promise<Caller> {
  let account = await store.accounts.findByEmail(LOCAL_EMAIL);
  if (!account) {
    try { account = await store.accounts.create({ email: LOCAL_EMAIL, name: 'Local (kerf mcp)' }); } catch (err) {
      if (!isStoreError(err, 'duplicate')) throw err;
      account = await store.accounts.findByEmail(LOCAL_EMAIL);
    }
  }
  return { ...localCaller(), accountId: account!.id };
}

/** How long a link's service has to answer before the link is said to need one started. */
const PROBE_MS = 1500;

/**
 * The web links this server hands out (checkout, review) open only where `kerf serve` runs on the
 * same store: checked when a link is made, since the service may be started or stopped at any time.
 */
export async function webLinksNote(baseUrl: string, dataDir: string): Promise<string | null> {
  try {
    const r = await fetch(`${baseUrl}/v1/health`, { signal: AbortSignal.timeout(PROBE_MS) });
    if (r.ok) return null;
  } catch { /* nothing listens there */ }
  return `No Kerf service answers at ${baseUrl} yet, so this link will not open until one runs on this data: start it with KERF_DATA_DIR=${dataDir} KERF_BASE_URL=${baseUrl} kerf serve (in a terminal, from the folder Kerf is installed in).`;
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args);
  if (parsed === 'help') return printHelp('mcp');
  if (typeof parsed === 'string') { stderr.write(JSON.stringify({ error: { code: 'invalid_arguments', message: parsed } }) + '\n' + USAGE); return 2; }
  const config = configFromEnv();
  const log = pino({ level: process.env.LOG_LEVEL || 'warn' }, pino.destination(2));
  const store = await openStore({ dataDir: parsed.dataDir ?? config.dataDir });
  let worker: JobWorker | null = null;
  const now = (): Date => new Date();
  const ctx: UseCaseContext = {
    store,
    engine: new LocalEngine(),
    links: restLinks(parsed.baseUrl ?? config.baseUrl),
    signer: new UrlSigner(await loadSigningSecret(store), now),
    log,
    now,
    newId,
    notifyJobs: () => worker?.wake(),
  };
  // analyses and production files run here, one at a time beside the protocol
  worker = new JobWorker(ctx, JOB_HANDLERS, { leaseMs: config.jobLeaseMs, pollMs: config.jobPollMs, concurrency: 1 });
  worker.start();
  const baseUrl = parsed.baseUrl ?? config.baseUrl;
  const dataDir = resolvePath(parsed.dataDir ?? config.dataDir);
  const server = serveMcpStdio(ctx, await localAccount(store), () => webLinksNote(baseUrl, dataDir));
  // the client closing stdin ends the session (the MCP stdio binding): finish and exit
  await new Promise<void>((resolve) => { stdin.once('end', resolve); stdin.once('close', resolve); });
  await server.close();
  await worker.stop(config.shutdownGraceMs);
  await store.close();
  return 0;
}
