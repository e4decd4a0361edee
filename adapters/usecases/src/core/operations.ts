// Operation keys (every MCP tool that writes takes one): the idempotency of REST's
// Idempotency-Key for callers that name their writes in the input instead of a header (MCP tools).
// Same key + same input: the first result again; same key + other input: an error naming the key.
import { createHash } from 'node:crypto';
import { requireScope, type Caller, type Scope } from './caller.ts';
import type { UseCaseContext } from './context.ts';
import { UseCaseError } from './errors.ts';
import { isStoreError, type DocumentRecord } from '@kerf/store';

export interface Operation {
  /** what is being done (the tool's name): the same key on another operation is other input */
  name: string;
  key: string;
  /** the input without the key */
  input: unknown;
  scope: Scope;
}

/** JSON with object keys sorted: the same input sent with its fields in another order is the same input. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

interface OperationDoc {
  id: string;
  fingerprint: string;
  state: 'running' | 'done';
  result: unknown;
  started_at: string;
  [key: string]: unknown;
}

/** A run older than this whose process never finished it (it died) may be run again. */
const STALE_AFTER_MS = 10 * 60 * 1000;

const reused = (key: string): UseCaseError => new UseCaseError('conflict', 'idempotency_error', 'idempotency_key_reused',
  `operation_key '${key}' was already used with different input (or by another tool); use a new operation_key for new input, and reuse a key only to retry the identical call.`,
  { param: 'operation_key', retryable: false });
const inUse = (key: string): UseCaseError => new UseCaseError('conflict', 'idempotency_error', 'idempotency_key_in_use',
  `The first call with operation_key '${key}' is still running; retry the identical call in a moment to get its result.`,
  { param: 'operation_key', retryable: true, retryAfterSeconds: 1 });

/**
 * Runs `run` once per (account, key): a retry gets the stored result. A failed run is forgotten, so
 * the same key may be retried once the cause is fixed (a design still processing, say).
 */
export async function runOnce<T>(ctx: UseCaseContext, caller: Caller, op: Operation, run: () => Promise<T>): Promise<T> {
  requireScope(caller, op.scope);
  const ops = ctx.store.documents<OperationDoc>('operations', { idPrefix: 'op' });
  const accountId = caller.accountId;
  const fingerprint = createHash('sha256').update(`${op.name}\n${canonical(op.input)}`).digest('hex');
  const started: OperationDoc = { id: '', fingerprint, state: 'running', result: null, started_at: ctx.now().toISOString() };
  let rec: DocumentRecord<OperationDoc>;
  try {
    // the key is unique per account: of two first calls at once, one creates and the other reads it
    rec = await ops.create(accountId, started, { key: op.key });
  } catch (err) {
    if (!isStoreError(err, 'duplicate')) throw err;
    const found = await ops.getByKey(accountId, op.key);
    if (!found) return runOnce(ctx, caller, op, run); // forgotten meanwhile (a failed run): start again
    if (found.data.fingerprint !== fingerprint) throw reused(op.key);
    if (found.data.state === 'done') return found.data.result as T;
    if (ctx.now().getTime() - Date.parse(found.data.started_at) < STALE_AFTER_MS) throw inUse(op.key);
    // its process died: take the run over (one taker wins the version)
    const taken = await ops.update(accountId, found.id, { ...found.data, started_at: started.started_at }, { expectedVersion: found.version }).catch((e: unknown) => {
      if (isStoreError(e, 'conflict')) throw inUse(op.key);
      throw e;
    });
    if (!taken) return runOnce(ctx, caller, op, run);
    rec = taken;
  }
  let result: T;
  try {
    result = await run();
  } catch (err) {
    await ops.delete(accountId, rec.id).catch(() => false);
    throw err;
  }
  await ops.update(accountId, rec.id, { ...rec.data, state: 'done', result });
  return result;
}
