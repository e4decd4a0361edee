// Keyset pagination over (created_at, id): a page starts strictly after the cursor's position, so
// rows inserted meanwhile never shift or repeat items of later pages.
import { decodeCursor, encodeCursor } from '../common/cursor.ts';
import type { ResolvedList } from '../common/validate.ts';
import type { Page } from '../port.ts';

export interface KeysetSql {
  /** `AND (...)` clause, empty on the first page. */
  where: string;
  orderBy: string;
  params: unknown[];
}

export function keyset(scope: string, list: ResolvedList, table = ''): KeysetSql {
  const c = table ? `${table}.` : '';
  const dir = list.order === 'desc' ? 'DESC' : 'ASC';
  const orderBy = `ORDER BY ${c}created_at ${dir}, ${c}id ${dir}`;
  if (list.cursor === null) return { where: '', orderBy, params: [] };
  const pos = decodeCursor(scope, list.order, list.cursor);
  const op = list.order === 'desc' ? '<' : '>';
  return {
    where: `AND (${c}created_at ${op} ? OR (${c}created_at = ? AND ${c}id ${op} ?))`,
    orderBy,
    params: [pos.createdAt, pos.createdAt, pos.id],
  };
}

/** `rows` were fetched with LIMIT limit + 1: the extra row only says that there is more. */
export function toPage<R, T extends { createdAt: string; id: string }>(scope: string, list: ResolvedList, rows: R[], map: (r: R) => T): Page<T> {
  const hasMore = rows.length > list.limit;
  const items = rows.slice(0, list.limit).map(map);
  const last = items[items.length - 1];
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(scope, list.order, last) : null };
}
