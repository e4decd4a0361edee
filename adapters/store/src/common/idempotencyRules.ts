// The decision of IdempotencyRepo.begin, shared so both stores answer the same way.
import type { IdempotencyBegin } from '../port.ts';
import { StoreError } from '../port.ts';
import { checkNonEmpty } from './validate.ts';

export interface StoredIdempotency {
  fingerprint: string;
  state: 'started' | 'finished';
  status: number | null;
  body: unknown;
  headers: Record<string, string> | null;
  updatedAt: Date;
  expiresAt: Date;
}

export type Decision = { take: true } | { take: false; answer: IdempotencyBegin };

/** `take`: (re)start the record; otherwise answer with what is stored. */
export function decide(existing: StoredIdempotency | null, fingerprint: string, now: Date, staleAfterMs: number): Decision {
  if (!existing || existing.expiresAt.getTime() <= now.getTime()) return { take: true };
  if (existing.fingerprint !== fingerprint) return { take: false, answer: { state: 'mismatch' } };
  if (existing.state === 'finished') {
    return { take: false, answer: { state: 'replay', status: existing.status ?? 200, body: existing.body, headers: existing.headers ?? {} } };
  }
  if (now.getTime() - existing.updatedAt.getTime() >= staleAfterMs) return { take: true };
  return { take: false, answer: { state: 'in_progress' } };
}

/** Idempotency-Key: 1..255 visible ASCII characters (the header's value as sent). */
export function checkIdempotencyKey(key: unknown): string {
  checkNonEmpty(key, 'key', 255);
  if (!/^[\x21-\x7e]+$/.test(key as string)) {
    throw new StoreError('invalid_argument', 'idempotency key must be visible ASCII characters', 'key');
  }
  return key as string;
}

export function checkResponse(response: { status: number; body: unknown; headers?: Record<string, string> }): void {
  if (!response || !Number.isInteger(response.status) || response.status < 100 || response.status > 599) {
    throw new StoreError('invalid_argument', 'response status must be an HTTP status code', 'status');
  }
  if (response.headers !== undefined && (typeof response.headers !== 'object' || response.headers === null ||
    Object.values(response.headers).some((v) => typeof v !== 'string'))) {
    throw new StoreError('invalid_argument', 'response headers must be a string map', 'headers');
  }
}
