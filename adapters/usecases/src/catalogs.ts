// Catalog lists with the contract's list envelope and opaque cursors. Catalogs are ordered data, so
// a cursor names the last id seen: stable when entries are added.
import type { UseCaseContext } from './context.ts';
import type { CatalogEntry, CatalogKind } from './engine-api.ts';
import { malformed, notFound } from './errors.ts';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

export interface ListEnvelope<T> { object: 'list'; data: T[]; has_more: boolean; next_cursor: string | null }

export interface CatalogQuery { limit?: number; cursor?: string; process?: 'sheet_metal' | 'tube_laser' }

function encodeCursor(kind: string, lastId: string): string {
  return Buffer.from(JSON.stringify({ c: kind, a: lastId })).toString('base64url');
}

function decodeCursor(kind: string, cursor: string): string {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown; a?: unknown };
    if (v.c === kind && typeof v.a === 'string') return v.a;
  } catch { /* fall through */ }
  throw malformed('invalid_cursor', 'The cursor is not one this list returned; pass `next_cursor` unchanged.', 'cursor');
}

export function paginate<T extends { id: string }>(kind: string, all: T[], query: CatalogQuery): ListEnvelope<T> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let start = 0;
  if (query.cursor) {
    const after = decodeCursor(kind, query.cursor);
    // Resume after the last entry seen; catalogs keep their order, new entries do not shift it.
    const at = all.findIndex((e) => e.id === after);
    if (at < 0) throw malformed('invalid_cursor', 'The cursor refers to a catalog entry that no longer exists; start again without a cursor.', 'cursor');
    start = at + 1;
  }
  const data = all.slice(start, start + limit);
  const hasMore = start + limit < all.length;
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore && data.length ? encodeCursor(kind, data[data.length - 1].id) : null };
}

export async function listCatalog(ctx: UseCaseContext, kind: CatalogKind, query: CatalogQuery): Promise<ListEnvelope<CatalogEntry>> {
  let all = await ctx.engine.catalog(kind);
  if (kind === 'finishes' && query.process) {
    const p = query.process;
    all = all.filter((f) => {
      const processes = (f as { processes?: unknown }).processes;
      const process = (f as { process?: unknown }).process;
      if (Array.isArray(processes)) return processes.includes(p);
      return process === undefined || process === p;
    });
  }
  return paginate(kind, all, query);
}

export async function hardwareModelFile(ctx: UseCaseContext, kind: 'studs' | 'nuts' | 'standoffs', itemId: string) {
  const items = await ctx.engine.catalog(kind);
  if (!items.some((i) => i.id === itemId)) throw notFound(kind.replace(/s$/, ''), itemId, 'item_id');
  const file = await ctx.engine.hardwareModel(kind, itemId);
  if (!file) throw notFound(`${kind.replace(/s$/, '')} model`, itemId, 'item_id');
  const key = `catalog/hardware/${kind}/${itemId}.${file.name.split('.').pop() ?? 'glb'}`;
  if (!(await ctx.store.blobs.exists(key))) await ctx.store.blobs.put(key, file.bytes, { contentType: file.contentType });
  return ctx.signer.sign({ k: key, t: file.contentType, n: `${itemId}.${file.name.split('.').pop() ?? 'glb'}` });
}
