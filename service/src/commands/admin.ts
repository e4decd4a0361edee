// `kerf admin <subcommand>`: account and API key administration against the configured store
// (KERF_DATA_DIR, or MONGODB_URL when set). Results are JSON on stdout; errors are JSON
// {"error":{code,message}} on stderr with exit 2 (usage) or 1 (failure).
import { randomBytes } from 'node:crypto';
import { stderr, stdin, stdout } from 'node:process';
import { createPasswordAccount, UseCaseError } from '@kerf/usecases';
import { createApiKeyForEmail, isStoreError, openStore, storeConfigFromEnv, type Store } from '@kerf/store';
import { ORDER_USAGE, runOrder } from './admin-orders.ts';
import { DROPSHIP_USAGE, runDropship } from './admin-dropship.ts';
import { runWebhook, WEBHOOK_USAGE } from './admin-webhooks.ts';

const USAGE = `usage:
  kerf admin create-api-key --email EMAIL [--name NAME] [--label LABEL] [--operator]
      prints {"account_id","api_key"}; creates the account when there is none. The key is shown once.
  kerf admin list-api-keys --email EMAIL
  kerf admin revoke-api-key --email EMAIL --key-id KEY_ID
  kerf admin create-account --email EMAIL [--name NAME] [--password-stdin]
      an account that signs in on the web site; prints {"account_id","email"} and, unless the
      password came on stdin, the generated "password" (shown once).
${ORDER_USAGE}${DROPSHIP_USAGE}${WEBHOOK_USAGE}`;

class UsageError extends Error {}

interface Options { email?: string; name?: string; label?: string; keyId?: string; operator: boolean; passwordStdin?: boolean }

const VALUE_FLAGS: Record<string, keyof Options> = { '--email': 'email', '--name': 'name', '--label': 'label', '--key-id': 'keyId' };

function parseOptions(args: string[]): Options {
  const out: Options = { operator: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    if (flag === '--operator' && eq < 0) { out.operator = true; continue; }
    if (flag === '--password-stdin' && eq < 0) { out.passwordStdin = true; continue; }
    const field = VALUE_FLAGS[flag];
    if (!field) throw new UsageError(`unknown option '${arg}'`);
    const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
    (out as unknown as Record<string, string>)[field] = value;
  }
  return out;
}

function need(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`${flag} is required`);
  return value;
}

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(storeConfigFromEnv());
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function fail(code: string, message: string): void {
  stderr.write(JSON.stringify({ error: { code, message } }) + '\n');
}

const SUBCOMMANDS: Record<string, (o: Options) => Promise<number>> = {
  async 'create-api-key'(o) {
    const email = need(o.email, '--email');
    const issued = await withStore((s) => createApiKeyForEmail(s, { email, name: o.name, label: o.label, operator: o.operator }));
    stdout.write(JSON.stringify({ account_id: issued.account_id, api_key: issued.api_key }) + '\n');
    return 0;
  },
  async 'list-api-keys'(o) {
    const email = need(o.email, '--email');
    return withStore(async (s) => {
      const account = await s.accounts.findByEmail(email);
      if (!account) { fail('account_not_found', `no account with email ${email}`); return 1; }
      stdout.write(JSON.stringify({ account_id: account.id, api_keys: await s.apiKeys.list(account.id) }) + '\n');
      return 0;
    });
  },
  async 'revoke-api-key'(o) {
    const email = need(o.email, '--email');
    const keyId = need(o.keyId, '--key-id');
    return withStore(async (s) => {
      const account = await s.accounts.findByEmail(email);
      if (!account || !(await s.apiKeys.revoke(account.id, keyId))) {
        fail('api_key_not_found', `no active key ${keyId} on the account with email ${email}`);
        return 1;
      }
      stdout.write(JSON.stringify({ account_id: account.id, revoked: keyId }) + '\n');
      return 0;
    });
  },
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

SUBCOMMANDS['create-account'] = async (o) => {
  const email = need(o.email, '--email');
  const generated = o.passwordStdin ? null : randomBytes(15).toString('base64url');
  const password = generated ?? (await readStdin());
  return withStore(async (store) => {
    try {
      const account = await createPasswordAccount({ store, now: () => new Date() }, { email, password, ...(o.name ? { name: o.name } : {}) });
      stdout.write(JSON.stringify({ account_id: account.id, email: account.email, ...(generated ? { password: generated } : {}) }) + '\n');
      return 0;
    } catch (err) {
      if (err instanceof UseCaseError) { fail(err.code, err.message); return 1; }
      throw err;
    }
  });
};

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === '--help' || sub === '-h') { stderr.write(USAGE); return sub ? 0 : 2; }
  if (sub === 'order') return runOrder(rest);
  if (sub === 'dropship') return runDropship(rest);
  if (sub === 'webhook') return runWebhook(rest);
  const handler = SUBCOMMANDS[sub];
  if (!handler) { fail('unknown_command', `unknown admin command '${sub}'`); stderr.write(USAGE); return 2; }
  try {
    return await handler(parseOptions(rest));
  } catch (err) {
    if (err instanceof UsageError) { fail('invalid_arguments', err.message); stderr.write(USAGE); return 2; }
    if (isStoreError(err)) { fail(err.code, err.message); return 1; }
    throw err;
  }
}
