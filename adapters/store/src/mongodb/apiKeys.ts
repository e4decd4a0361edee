import type { Collection, Document } from 'mongodb';
import { newId } from '@kerf/common';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey } from '../common/apiKeyCodec.ts';
import { LAST_USED_REFRESH_MS } from '../common/constants.ts';
import { checkNonEmpty } from '../common/validate.ts';
import type { ApiKeyInfo, ApiKeyRepo, AuthenticatedKey, CreatedApiKey } from '../port.ts';
import { isoOrNull, type MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';

function toInfo(d: Document): ApiKeyInfo {
  return {
    id: d._id, accountId: d.accountId, label: d.label ?? null, operator: d.operator === true, prefix: d.prefix,
    createdAt: (d.createdAt as Date).toISOString(), lastUsedAt: isoOrNull(d.lastUsedAt), revokedAt: isoOrNull(d.revokedAt),
  };
}

/** Never read the hash back out. */
const PUBLIC_FIELDS = { hash: 0 } as const;

export class MongoApiKeys implements ApiKeyRepo {
  private readonly col: Collection<Document>;
  private readonly accounts: Collection<Document>;
  constructor(private readonly ctx: MongoContext) {
    this.col = ctx.db.collection(COLLECTIONS.apiKeys);
    this.accounts = ctx.db.collection(COLLECTIONS.accounts);
  }

  async create(accountId: string, opts: { label?: string; operator?: boolean } = {}): Promise<CreatedApiKey | null> {
    const label = opts.label === undefined ? null : checkNonEmpty(opts.label, 'label', 200);
    if (!(await this.accounts.findOne({ _id: String(accountId) } as Document, { projection: { _id: 1 } }))) return null;
    const plaintext = generateApiKey();
    const now = this.ctx.now();
    const doc = {
      _id: newId('key', now), accountId: String(accountId), hash: hashApiKey(plaintext), prefix: displayPrefix(plaintext),
      label, operator: opts.operator === true, createdAt: now, lastUsedAt: null, revokedAt: null,
    };
    await this.col.insertOne(doc as Document);
    return { ...toInfo(doc), api_key: plaintext };
  }

  async authenticate(plaintext: string): Promise<AuthenticatedKey | null> {
    if (!looksLikeApiKey(plaintext)) return null;
    const key = await this.col.findOne({ hash: hashApiKey(plaintext), revokedAt: null });
    if (!key) return null;
    const account = await this.accounts.findOne({ _id: key.accountId } as Document, { projection: { operator: 1 } });
    if (!account) return null;
    const now = this.ctx.now();
    const last = key.lastUsedAt as Date | null;
    if (!last || now.getTime() - last.getTime() >= LAST_USED_REFRESH_MS) {
      await this.col.updateOne({ _id: key._id }, { $set: { lastUsedAt: now } });
    }
    return { accountId: key.accountId, keyId: key._id as unknown as string, operator: key.operator === true && account.operator === true };
  }

  async revoke(accountId: string, keyId: string): Promise<boolean> {
    const r = await this.col.updateOne({ _id: String(keyId), accountId: String(accountId), revokedAt: null } as Document, { $set: { revokedAt: this.ctx.now() } });
    return r.matchedCount === 1;
  }

  async list(accountId: string): Promise<ApiKeyInfo[]> {
    const docs = await this.col.find({ accountId: String(accountId) }, { projection: PUBLIC_FIELDS }).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toInfo);
  }
}
