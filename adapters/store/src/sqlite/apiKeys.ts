import { BoundedMap, newId } from '@kerf/common';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey } from '../common/apiKeyCodec.ts';
import { LAST_USED_REFRESH_MS } from '../common/constants.ts';
import { checkNonEmpty } from '../common/validate.ts';
import type { ApiKeyInfo, ApiKeyRepo, AuthenticatedKey, CreatedApiKey } from '../port.ts';
import type { SqliteContext } from './context.ts';

interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  label: string | null;
  operator: number;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function toInfo(r: KeyRow): ApiKeyInfo {
  return {
    id: r.id, accountId: r.account_id, label: r.label, operator: r.operator === 1, prefix: r.prefix,
    createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at,
  };
}

const KEY_COLUMNS = 'id, account_id, prefix, label, operator, created_at, last_used_at, revoked_at';

/** Keys remembered as authenticated; past this many the least recently used is forgotten. */
const RECENT_KEYS_MAX = 1024;

/** A key found good, and the count of credential changes then (credential_changes). */
interface RecentKey { key: AuthenticatedKey; lastUsedMs: number; changes: number }

export class SqliteApiKeys implements ApiKeyRepo {
  private readonly insert;
  private readonly accountExists;
  private readonly byHash;
  private readonly touch;
  private readonly revokeStmt;
  private readonly byAccount;
  private readonly changes;
  /**
   * Keys authenticated lately, by plaintext: every request presents its key, and looking it up
   * (hash, join) was a good part of a quote's time. One is taken as still good while the count of
   * credential changes has not moved: triggers move it with every revocation, key or account
   * operator change and deletion, made by any process or tool (migration 11). Before, any commit
   * of another process (PRAGMA data_version) sent every request of a second service process back
   * to the lookup.
   */
  private readonly recent = new BoundedMap<string, RecentKey>(RECENT_KEYS_MAX);
  constructor(private readonly ctx: SqliteContext) {
    const { db } = ctx;
    this.changes = db.prepare('SELECT n FROM credential_changes').pluck();
    this.accountExists = db.prepare('SELECT 1 FROM accounts WHERE id = ?');
    this.insert = db.prepare(`INSERT INTO api_keys (id, account_id, hash, prefix, label, operator, created_at)
      VALUES (@id, @accountId, @hash, @prefix, @label, @operator, @now) RETURNING ${KEY_COLUMNS}`);
    this.byHash = db.prepare(`SELECT k.id, k.account_id, k.operator AS key_operator, k.last_used_at, a.operator AS account_operator
      FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ? AND k.revoked_at IS NULL`);
    this.touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    this.revokeStmt = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL');
    this.byAccount = db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY created_at, id`);
  }

  async create(accountId: string, opts: { label?: string; operator?: boolean } = {}): Promise<CreatedApiKey | null> {
    const label = opts.label === undefined ? null : checkNonEmpty(opts.label, 'label', 200);
    const plaintext = generateApiKey();
    const now = this.ctx.now();
    const row = await this.ctx.write(() => this.accountExists.get(String(accountId)) ? this.insert.get({
      id: newId('key', now), accountId, hash: hashApiKey(plaintext), prefix: displayPrefix(plaintext),
      label, operator: opts.operator ? 1 : 0, now: now.toISOString(),
    }) as KeyRow : null);
    return row ? { ...toInfo(row), api_key: plaintext } : null;
  }

  async authenticate(plaintext: string): Promise<AuthenticatedKey | null> {
    if (!looksLikeApiKey(plaintext)) return null;
    const changes = this.changes.get() as number;
    const now = this.ctx.now();
    const known = this.recent.get(plaintext);
    if (known && known.changes === changes) {
      if (now.getTime() - known.lastUsedMs >= LAST_USED_REFRESH_MS) await this.touched(known.key.keyId, now, known);
      return known.key;
    }
    const row = this.byHash.get(hashApiKey(plaintext)) as
      | { id: string; account_id: string; key_operator: number; account_operator: number; last_used_at: string | null }
      | undefined;
    if (!row) return null;
    const key = { accountId: row.account_id, keyId: row.id, operator: row.key_operator === 1 && row.account_operator === 1 };
    const recent: RecentKey = { key, lastUsedMs: row.last_used_at === null ? -Infinity : Date.parse(row.last_used_at), changes };
    if (now.getTime() - recent.lastUsedMs >= LAST_USED_REFRESH_MS) await this.touched(row.id, now, recent);
    this.recent.set(plaintext, recent);
    return key;
  }

  private async touched(keyId: string, now: Date, recent: RecentKey): Promise<void> {
    recent.lastUsedMs = now.getTime();
    await this.ctx.write(() => this.touch.run(now.toISOString(), keyId));
  }

  async revoke(accountId: string, keyId: string): Promise<boolean> {
    const now = this.ctx.now().toISOString();
    // the trigger moves credential_changes in the same commit: no request after it takes the key as good
    return (await this.ctx.write(() => this.revokeStmt.run(now, String(keyId), String(accountId)))).changes === 1;
  }

  async list(accountId: string): Promise<ApiKeyInfo[]> {
    return (this.byAccount.all(String(accountId)) as KeyRow[]).map(toInfo);
  }
}
