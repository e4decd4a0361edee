// The decision of IdempotencyRepo.begin, shared so both stores answer the same way.
import type { IdempotencyBegin } from '../port.ts';
import { StoreError } from '../port.ts';
import { randomBytes } from 'node:crypto';
import { checkNonEmpty } from './validate.ts';

/** A fresh idempotency seed: the ids a request mints are derived from it, so it must be unguessable. */
export const newSeed = (): string => randomBytes(16).toString('hex');

/** The moment a released record was last touched: stale for any staleAfterMs. */
export const RELEASED_AT = new Date(0);

export interface StoredIdempotency {
  fingerprint: string;
  state: 'started' | 'finished';
  status: number | null;
  body: unknown;
  headers: Record<string, string> | null;
  updatedAt: Date;
  expiresAt: Date;
}

/** `take`: (re)start the record (`resume`: the same request whose run stopped: keep its seed); otherwise answer with what is stored. */
export type Decision = { take: true; resume: boolean } | { take: false; answer: IdempotencyBegin };

export function decide(existing: StoredIdempotency | null, fingerprint: string, now: Date, staleAfterMs: number): Decision {
  if (!existing || existing.expiresAt.getTime() <= now.getTime()) return { take: true, resume: false };
  if (existing.fingerprint !== fingerprint) return { take: false, answer: { state: 'mismatch' } };
  if (existing.state === 'finished') {
    return { take: false, answer: { state: 'replay', status: existing.status ?? 200, body: existing.body, headers: existing.headers ?? {} } };
  }
  if (now.getTime() - existing.updatedAt.getTime() >= staleAfterMs) return { take: true, resume: true };
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
