// Account resources kept as store documents. Internal bookkeeping lives under keys starting with
// `_` and never reaches a caller.
import { isStoreError, type DocumentCollection } from '@kerf/store';
import type { UseCaseContext } from './context.ts';
import { malformed } from './errors.ts';

export type Doc = Record<string, unknown> & { id: string };

export function collection(ctx: UseCaseContext, name: 'dfm_reports' | 'review_links'): DocumentCollection<Doc> {
  return ctx.store.documents<Doc>(name);
}

/** Every document of an account matching `opts`, read a page of 100 at a time. */
export async function listAll<T>(docs: DocumentCollection<T>, accountId: string, opts: Omit<NonNullable<Parameters<DocumentCollection<T>['list']>[1]>, 'limit' | 'cursor'> = {}): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  do {
    const page = await docs.list(accountId, { ...opts, limit: 100, cursor });
    out.push(...page.items.map((r) => r.data));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** A copy of `doc` without its internal keys (`_...`). */
export function publicView<T extends object>(doc: T): T {
  // most documents have none: one spread copies them (Object.entries' pairs were most of a quote's copy)
  let internal = false;
  for (const k in doc) if (k.charCodeAt(0) === 0x5f) { internal = true; break; }
  if (!internal) return { ...doc };
  const out: Record<string, unknown> = {};
  for (const k in doc) if (k.charCodeAt(0) !== 0x5f && Object.hasOwn(doc, k)) out[k] = doc[k];
  return out as T;
}

export function isoPlus(now: Date, days: number): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString();
}

/** A page of a list, as every list endpoint returns it. */
export type { ListEnvelope } from './objects/common.ts';

/** A store paging failure as the caller's error (a cursor we never issued). */
export async function paged<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isStoreError(err, 'invalid_cursor')) throw malformed('invalid_cursor', 'The cursor is not one this list returned; pass `next_cursor` unchanged.', 'cursor');
    throw err;
  }
}
