// Every collection's indexes, created at open (createIndexes is a no-op for existing ones). The
// unique indexes are the database-enforced constraints the port promises.
import type { Db, IndexDescription } from 'mongodb';

export const COLLECTIONS = {
  accounts: 'accounts',
  apiKeys: 'api_keys',
  designs: 'designs',
  jobs: 'jobs',
  documents: 'documents',
  idempotency: 'idempotency_keys',
  rateCounters: 'rate_counters',
  leases: 'leases',
} as const;

export const BLOB_BUCKET = 'blobs';

export const INDEXES: Readonly<Record<string, IndexDescription[]>> = {
  [COLLECTIONS.accounts]: [{ key: { email: 1 }, name: 'email_unique', unique: true }],
  [COLLECTIONS.apiKeys]: [
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { accountId: 1, createdAt: 1, _id: 1 }, name: 'by_account' },
  ],
  [COLLECTIONS.designs]: [
    { key: { accountId: 1, createdAt: -1, _id: -1 }, name: 'by_account' },
    { key: { accountId: 1, status: 1, createdAt: -1, _id: -1 }, name: 'by_account_status' },
    { key: { updatedAt: 1, _id: 1 }, name: 'outbox_pending', partialFilterExpression: { outbox: { $exists: true } } },
  ],
  [COLLECTIONS.jobs]: [
    // At most one queued or running job per (kind, resource): `active` is true exactly then.
    { key: { kind: 1, resourceId: 1 }, name: 'one_active', unique: true, partialFilterExpression: { active: { $eq: true } } },
    // A limited enqueue's admission slot (jobs.ts insertInSlot): one active job per (account, slot).
    { key: { accountId: 1, admissionSlot: 1 }, name: 'admission_slot', unique: true, partialFilterExpression: { active: { $eq: true }, admissionSlot: { $exists: true } } },
    { key: { status: 1, runAfter: 1, createdAt: 1, _id: 1 }, name: 'claimable_queued' },
    { key: { status: 1, leaseUntil: 1, createdAt: 1, _id: 1 }, name: 'claimable_expired' },
    { key: { resourceId: 1, createdAt: 1, _id: 1 }, name: 'by_resource' },
  ],
  [COLLECTIONS.documents]: [
    { key: { collection: 1, id: 1 }, name: 'id_unique', unique: true },
    { key: { collection: 1, accountId: 1, key: 1 }, name: 'key_unique', unique: true, partialFilterExpression: { key: { $type: 'string' } } },
    { key: { collection: 1, accountId: 1, createdAt: -1, id: -1 }, name: 'by_account' },
    { key: { updatedAt: 1, id: 1 }, name: 'outbox_pending', partialFilterExpression: { outbox: { $exists: true } } },
  ],
  [COLLECTIONS.idempotency]: [
    { key: { accountId: 1, key: 1 }, name: 'account_key_unique', unique: true },
    // The server deletes records once expired (its TTL monitor runs about every minute; the store
    // also ignores expired records, so the exact moment does not matter).
    { key: { expiresAt: 1 }, name: 'expiry_ttl', expireAfterSeconds: 0 },
  ],
  // ended windows go (the counter restarts an ended window itself, whenever the monitor runs)
  [COLLECTIONS.rateCounters]: [{ key: { resetAt: 1 }, name: 'window_ttl', expireAfterSeconds: 0 }],
};

export async function ensureIndexes(db: Db): Promise<void> {
  for (const [collection, indexes] of Object.entries(INDEXES)) {
    await db.collection(collection).createIndexes(indexes);
  }
  await db.collection(`${BLOB_BUCKET}.files`).createIndexes([{ key: { filename: 1, uploadDate: -1, _id: -1 }, name: 'by_key' }]);
}
