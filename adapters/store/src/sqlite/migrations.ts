// Numbered schema migrations of the embedded store, applied in order at open and recorded in
// schema_migrations. Append only: a released migration is never edited, a change is a new one.
import type Database from 'better-sqlite3';
import { StoreError } from '../port.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, api keys, designs, jobs, documents, idempotency, blobs',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        operator INTEGER NOT NULL DEFAULT 0 CHECK (operator IN (0, 1)),
        dropship_status TEXT CHECK (dropship_status IN ('requested', 'approved', 'suspended', 'denied')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        label TEXT,
        operator INTEGER NOT NULL DEFAULT 0 CHECK (operator IN (0, 1)),
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_by_account ON api_keys(account_id, created_at, id);
      CREATE TABLE designs (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'ready', 'failed')),
        name TEXT NOT NULL,
        source_blob_key TEXT NOT NULL,
        source_size INTEGER NOT NULL,
        source_sha256 TEXT NOT NULL,
        options TEXT NOT NULL,
        result TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX designs_by_account ON designs(account_id, created_at, id);
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        resource_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL,
        worker_id TEXT,
        lease_until TEXT,
        run_after TEXT NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- At most one active job per (kind, resource): enqueue is idempotent.
      CREATE UNIQUE INDEX jobs_one_active ON jobs(kind, resource_id) WHERE status IN ('queued', 'running');
      CREATE INDEX jobs_claimable ON jobs(status, created_at, id);
      CREATE INDEX jobs_by_resource ON jobs(resource_id, created_at, id);
      CREATE TABLE documents (
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        key TEXT,
        data TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (collection, id)
      );
      CREATE UNIQUE INDEX documents_unique_key ON documents(collection, account_id, key) WHERE key IS NOT NULL;
      CREATE INDEX documents_by_account ON documents(collection, account_id, created_at, id);
      CREATE TABLE idempotency_keys (
        account_id TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('started', 'finished')),
        status INTEGER,
        body TEXT,
        headers TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (account_id, key)
      );
      CREATE INDEX idempotency_by_expiry ON idempotency_keys(expires_at);
      CREATE TABLE blobs (
        key TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        content_type TEXT,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'documents may belong to a service-level owner (no account foreign key)',
    // Service-wide settings (e.g. the URL signing secret) live in documents under a reserved
    // owner id such as 'system', which is not an account. SQLite cannot drop a constraint, so the
    // table is rebuilt; the MongoDB store never had the constraint.
    sql: `
      CREATE TABLE documents_v2 (
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        key TEXT,
        data TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (collection, id)
      );
      INSERT INTO documents_v2 SELECT collection, id, account_id, key, data, version, created_at, updated_at FROM documents;
      DROP TABLE documents;
      ALTER TABLE documents_v2 RENAME TO documents;
      CREATE UNIQUE INDEX documents_unique_key ON documents(collection, account_id, key) WHERE key IS NOT NULL;
      CREATE INDEX documents_by_account ON documents(collection, account_id, created_at, id);
    `,
  },
  {
    version: 3,
    name: 'outbox: events pending on the design or document whose change they report',
    sql: `
      ALTER TABLE designs ADD COLUMN outbox TEXT;
      ALTER TABLE documents ADD COLUMN outbox TEXT;
      CREATE INDEX designs_outbox ON designs(updated_at, id) WHERE outbox IS NOT NULL;
      CREATE INDEX documents_outbox ON documents(updated_at, id) WHERE outbox IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'idempotency seeds (a resumed request mints the ids of its first run)',
    sql: `
      ALTER TABLE idempotency_keys ADD COLUMN seed TEXT;
    `,
  },
  {
    version: 5,
    name: 'jobs: when each was claimed, and by account (fair claiming, per-account limits)',
    sql: `
      ALTER TABLE jobs ADD COLUMN claimed_at TEXT;
      CREATE INDEX jobs_by_account ON jobs(account_id, status, kind);
      CREATE INDEX jobs_claims_by_account ON jobs(account_id, claimed_at) WHERE claimed_at IS NOT NULL;
    `,
  },
  {
    version: 6,
    name: 'outbox: pending events in a table of their own (clearing them no longer rewrites the record)',
    sql: `
      CREATE TABLE outbox_events (
        source TEXT NOT NULL,
        account_id TEXT NOT NULL,
        id TEXT NOT NULL,
        events TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (source, account_id, id)
      );
      CREATE INDEX outbox_events_position ON outbox_events(updated_at, id);
      INSERT INTO outbox_events SELECT 'designs', account_id, id, outbox, updated_at FROM designs WHERE outbox IS NOT NULL;
      INSERT INTO outbox_events SELECT 'documents:' || collection, account_id, id, outbox, updated_at FROM documents WHERE outbox IS NOT NULL;
      DROP INDEX designs_outbox;
      DROP INDEX documents_outbox;
      ALTER TABLE designs DROP COLUMN outbox;
      ALTER TABLE documents DROP COLUMN outbox;
    `,
  },
  {
    version: 7,
    name: 'outbox: the ids of the pending events beside them (a clear reads the ids, not the payloads)',
    sql: `
      ALTER TABLE outbox_events ADD COLUMN event_ids TEXT NOT NULL DEFAULT '[]';
      UPDATE outbox_events SET event_ids = (SELECT json_group_array(json_extract(value, '$.id')) FROM json_each(outbox_events.events));
    `,
  },
  {
    version: 8,
    name: 'outbox: the types of the pending events beside their ids (a relay reads where they go, not the payloads)',
    sql: `
      ALTER TABLE outbox_events ADD COLUMN event_types TEXT NOT NULL DEFAULT '[]';
      UPDATE outbox_events SET event_types = (SELECT json_group_array(json_extract(value, '$.type')) FROM json_each(outbox_events.events));
    `,
  },
  {
    version: 9,
    name: 'leases: roles one process at a time holds (the event relay)',
    sql: `
      CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until TEXT NOT NULL);
    `,
  },
  {
    version: 10,
    name: 'documents: kept texts stored once per account, named by the rows that hold them (texts-apart.ts)',
    sql: `
      ALTER TABLE documents ADD COLUMN apart TEXT;
      CREATE TABLE texts_apart (account_id TEXT NOT NULL, hash TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (account_id, hash)) WITHOUT ROWID;
    `,
  },
  {
    version: 11,
    name: 'credential_changes: a count every change to what authenticates a key moves (triggers), whichever process or tool makes it',
    sql: `
      CREATE TABLE credential_changes (n INTEGER NOT NULL);
      INSERT INTO credential_changes (n) VALUES (0);
      CREATE TRIGGER api_keys_changed AFTER UPDATE OF id, account_id, hash, operator, revoked_at ON api_keys BEGIN UPDATE credential_changes SET n = n + 1; END;
      CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys BEGIN UPDATE credential_changes SET n = n + 1; END;
      CREATE TRIGGER accounts_changed AFTER UPDATE OF id, operator ON accounts BEGIN UPDATE credential_changes SET n = n + 1; END;
      CREATE TRIGGER accounts_deleted AFTER DELETE ON accounts BEGIN UPDATE credential_changes SET n = n + 1; END;
    `,
  },
];

/** Applies the pending migrations in one IMMEDIATE transaction, so concurrent openers serialise. */
export function migrate(db: Database.Database, now: () => Date): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const apply = db.transaction(() => {
    const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
    const current = row.v ?? 0;
    const latest = MIGRATIONS[MIGRATIONS.length - 1].version;
    if (current > latest) {
      throw new StoreError('store_unavailable', `database schema version ${current} is newer than this build knows (${latest}); upgrade kerf`);
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      record.run(m.version, m.name, now().toISOString());
    }
    return latest;
  });
  return apply.immediate();
}
