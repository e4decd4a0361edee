import type Database from 'better-sqlite3';
import type { RecordedEvents } from '../common/outbox.ts';
import type { TextsApart } from './texts-apart.ts';

export interface SqliteContext {
  db: Database.Database;
  now: () => Date;
  /** Runs synchronous write work in the next group commit (group-commit.ts); settles once durable. */
  write: <T>(fn: () => T) => Promise<T>;
  /** Settles once everything committed so far (by any process) is on disk (wal-sync.ts). */
  synced: () => Promise<void>;
  /** Told after each committed write that recorded events (Outbox.onRecorded). */
  recorded: RecordedEvents;
  /** Kept texts stored once per account, named by documents' rows (texts-apart.ts). */
  textsApart: TextsApart;
}

/** SQLite reports constraint violations as SqliteError with a code such as SQLITE_CONSTRAINT_UNIQUE. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: unknown })?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export { toJsonText as toJson } from '../common/json.ts';
