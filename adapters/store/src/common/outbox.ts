// Checks of outbox events and entries, shared by both stores so both refuse the same input.
import { StoreError, type OutboxEvent } from '../port.ts';
import { plainJson, toJsonText } from './json.ts';
import { checkCollectionName, checkNonEmpty } from './validate.ts';

export const DESIGNS_SOURCE = 'designs';

export const DOCUMENTS_SOURCE_PREFIX = 'documents:';

/** An event's payload: the value given, or what its function returns (OutboxEvent.payload). */
function payloadOf(e: OutboxEvent): unknown {
  return typeof e.payload === 'function' ? (e.payload as () => unknown)() : e.payload;
}

/** Checked events (checkOutboxEventList) as stored: plain JSON copies, without their audience. */
export function plainOutboxEvents(checked: OutboxEvent[]): OutboxEvent[] {
  return checked.map((e) => ({ id: e.id, type: e.type, payload: plainJson(payloadOf(e), 'events.payload') }));
}

/** Events as the SQLite outbox stores them: a JSON array of the events, one of their ids and one of their types. */
export interface OutboxEventTexts { events: string; eventIds: string; eventTypes: string }

/** Checked events (checkOutboxEventList) as the texts they are stored as (serialised once); null when none. */
export function outboxEventTexts(checked: OutboxEvent[]): OutboxEventTexts | null {
  if (checked.length === 0) return null;
  return {
    events: `[${checked.map((e) => toJsonText({ id: e.id, type: e.type, payload: payloadOf(e) }, 'events.payload')).join(',')}]`,
    eventIds: JSON.stringify(checked.map((e) => e.id)),
    eventTypes: JSON.stringify(checked.map((e) => e.type)),
  };
}

/** The events checked (ids, types, audiences), not yet serialised; [] when none were given. */
export function checkOutboxEventList(events: OutboxEvent[] | undefined): OutboxEvent[] {
  if (events === undefined) return [];
  if (!Array.isArray(events) || events.length > 100) throw new StoreError('invalid_argument', 'events must be an array of at most 100 events', 'events');
  return events.map((e, i) => {
    if (!e || typeof e !== 'object') throw new StoreError('invalid_argument', `events[${i}] must be an object`, 'events');
    const checked: OutboxEvent = { id: checkNonEmpty(e.id, 'events.id', 100), type: checkNonEmpty(e.type, 'events.type', 100), payload: e.payload ?? null };
    if (e.audience !== undefined) checked.audience = checkCollectionName(e.audience, 'events.audience');
    return checked;
  });
}

/**
 * The events an account's write records: those without an audience, and those whose audience
 * collection the account holds a document of (`holds`).
 */
export function eventsForAudience(events: OutboxEvent[], holds: (collection: string) => boolean): OutboxEvent[] {
  return events.filter((e) => e.audience === undefined || holds(e.audience));
}

export function checkOutboxLimit(limit: number | undefined): number {
  const n = limit ?? 100;
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new StoreError('invalid_argument', 'limit must be an integer in 1..1000', 'limit');
  return n;
}

export function checkEventIds(ids: string[]): string[] {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw new StoreError('invalid_argument', 'eventIds must be an array of strings', 'eventIds');
  return ids;
}

/** 'designs' or the collection of 'documents:<collection>'; anything else is invalid. */
export function parseSource(source: string): { table: 'designs' } | { table: 'documents'; collection: string } {
  if (source === DESIGNS_SOURCE) return { table: 'designs' };
  if (typeof source === 'string' && source.startsWith(DOCUMENTS_SOURCE_PREFIX) && source.length > DOCUMENTS_SOURCE_PREFIX.length) {
    return { table: 'documents', collection: source.slice(DOCUMENTS_SOURCE_PREFIX.length) };
  }
  throw new StoreError('invalid_argument', `unknown outbox source '${String(source)}'`, 'source');
}

/** An entry's position in the outbox order (updated at, then record id): opaque to callers. */
export function outboxPosition(at: string, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

/** The (updated at, id) a position stands for; StoreError invalid_cursor (param 'after') for anything else. */
export function parseOutboxPosition(position: string): { at: string; id: string } {
  try {
    const v = JSON.parse(Buffer.from(position, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && !Number.isNaN(Date.parse(v[0]))) return { at: v[0], id: v[1] };
  } catch { /* reported below */ }
  throw new StoreError('invalid_cursor', 'not an outbox position this store issued', 'after');
}

/** This store object's listeners for writes that recorded events (Outbox.onRecorded). */
export class RecordedEvents {
  private readonly listeners = new Set<() => void>();

  on(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  /** After a write that recorded events has committed. A listener's error is not the writer's. */
  emit(): void {
    for (const listener of this.listeners) {
      try { listener(); } catch { /* the listener's own affair */ }
    }
  }
}
