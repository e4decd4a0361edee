// Argument checks shared by both stores, so both reject the same inputs with the same errors.
import { StoreError, type ListOptions } from '../port.ts';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;
const MAX_BLOB_KEY_CHARS = 512;
const BLOB_SEGMENT = /^[A-Za-z0-9._-]+$/;
const COLLECTION_NAME = /^[a-z][a-z0-9_]{0,62}$/;
const FILTER_FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ID_PREFIX = /^[a-z][a-z0-9]{0,15}$/;
const MAX_EMAIL_CHARS = 254;

export interface ResolvedList {
  limit: number;
  order: 'asc' | 'desc';
  cursor: string | null;
}

export function resolveList(opts: ListOptions | undefined): ResolvedList {
  const limit = opts?.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new StoreError('invalid_argument', `limit must be an integer in 1..${MAX_PAGE_SIZE}`, 'limit');
  }
  const order = opts?.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw new StoreError('invalid_argument', "order must be 'asc' or 'desc'", 'order');
  const cursor = opts?.cursor ?? null;
  if (cursor !== null && typeof cursor !== 'string') throw new StoreError('invalid_cursor', 'cursor must be a string', 'cursor');
  return { limit, order, cursor };
}

export function checkBlobKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_BLOB_KEY_CHARS) {
    throw new StoreError('invalid_argument', `blob key must be a string of 1..${MAX_BLOB_KEY_CHARS} characters`, 'key');
  }
  for (const segment of key.split('/')) {
    if (!BLOB_SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw new StoreError('invalid_argument', `blob key '${key}' has an invalid path segment`, 'key');
    }
  }
  return key;
}

export function checkCollectionName(name: unknown, param = 'collection'): string {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name)) {
    throw new StoreError('invalid_argument', 'collection name must match /^[a-z][a-z0-9_]{0,62}$/', param);
  }
  return name;
}

export function checkIdPrefix(prefix: string): string {
  if (!ID_PREFIX.test(prefix)) throw new StoreError('invalid_argument', 'id prefix must match /^[a-z][a-z0-9]{0,15}$/', 'idPrefix');
  return prefix;
}

export function checkFilter(filter: Record<string, unknown> | undefined): [string, string | number | boolean | null][] {
  if (!filter) return [];
  return Object.entries(filter).map(([field, value]) => {
    if (!FILTER_FIELD.test(field)) throw new StoreError('invalid_argument', `filter field '${field}' is not a plain field name`, 'filter');
    const t = typeof value;
    if (value !== null && t !== 'string' && t !== 'boolean' && !(t === 'number' && Number.isFinite(value))) {
      throw new StoreError('invalid_argument', `filter value of '${field}' must be a string, finite number, boolean or null`, 'filter');
    }
    return [field, value as string | number | boolean | null];
  });
}

export function normalizeEmail(email: unknown): string {
  if (typeof email !== 'string') throw new StoreError('invalid_argument', 'email must be a string', 'email');
  const normalized = email.trim().toLowerCase();
  // Deliberately loose: one '@' with something on both sides; deliverability is not ours to judge.
  if (normalized.length > MAX_EMAIL_CHARS || !/^[^@\s]+@[^@\s]+$/.test(normalized)) {
    throw new StoreError('invalid_argument', `'${email}' is not an email address`, 'email');
  }
  return normalized;
}

/** The normalised email, or null for anything that is not one (lookups never throw). */
export function emailOrNull(email: unknown): string | null {
  try {
    return normalizeEmail(email);
  } catch {
    return null;
  }
}

export function checkPositiveMs(value: unknown, param: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new StoreError('invalid_argument', `${param} must be a positive number of milliseconds`, param);
  }
  return value;
}

export function checkNonEmpty(value: unknown, param: string, maxChars = 500): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxChars) {
    throw new StoreError('invalid_argument', `${param} must be a non-empty string of at most ${maxChars} characters`, param);
  }
  return value;
}

/** How many keys one blob listing (listOlder) returns at most: an integer in 1..10000. */
export function checkBlobListLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new StoreError('invalid_argument', 'limit must be 1..10000', 'limit');
  return limit;
}
