// Opaque list cursors: the (createdAt, id) of the last item of a page, bound to the list they came
// from (`scope`) and its order, so a cursor of another list or order is rejected, not misread.
import { createHash } from 'node:crypto';
import { StoreError } from '../port.ts';

export interface CursorPosition {
  createdAt: string;
  id: string;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A short tag of the scope keeps cursors short even when the scope holds a filter. */
function tag(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 12);
}

export function encodeCursor(scope: string, order: 'asc' | 'desc', pos: CursorPosition): string {
  return Buffer.from(JSON.stringify([tag(scope), order, pos.createdAt, pos.id]), 'utf8').toString('base64url');
}

export function decodeCursor(scope: string, order: 'asc' | 'desc', cursor: string): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== tag(scope) || parsed[1] !== order ||
    typeof parsed[2] !== 'string' || !ISO_UTC.test(parsed[2]) || typeof parsed[3] !== 'string' || parsed[3].length > 200
  ) {
    throw new StoreError('invalid_cursor', 'cursor is not a next_cursor of this list', 'cursor');
  }
  return { createdAt: parsed[2], id: parsed[3] };
}
