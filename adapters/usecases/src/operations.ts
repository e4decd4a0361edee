// Operation keys (interface.md 4.4: "writes require operation_key"): the idempotency of REST's
// Idempotency-Key for callers that name their writes in the input instead of a header (MCP tools).
// Same key + same input: the first result again; same key + other input: an error naming the key.
import { createHash } from 'node:crypto';
import { requireScope, type Caller, type Scope } from './caller.ts';
import type { UseCaseContext } from './context.ts';
import { UseCaseError } from './errors.ts';

export interface Operation {
  /** what is being done (the tool's name): the same key on another operation is other input */
  name: string;
  key: string;
  /** the input without the key */
  input: unknown;
  scope: Scope;
}

/** JSON with object keys sorted: the same input sent with its fields in another order is the same input. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Runs `run` once per (account, key): a retry gets the stored result. A failed run is forgotten, so
 * the same key may be retried once the cause is fixed (a design still processing, say).
 */
export async function runOnce<T>(ctx: UseCaseContext, caller: Caller, op: Operation, run: () => Promise<T>): Promise<T> {
  requireScope(caller, op.scope);
  // a namespace of its own: an operation key never meets a REST Idempotency-Key of the same text
  const key = `op:${op.key}`;
  const fingerprint = createHash('sha256').update(`${op.name}\n${canonical(op.input)}`).digest('hex');
  const begun = await ctx.store.idempotency.begin(caller.accountId, key, fingerprint);
  switch (begun.state) {
    case 'replay':
      return begun.body as T;
    case 'mismatch':
      throw new UseCaseError('conflict', 'idempotency_error', 'idempotency_key_reused',
        `operation_key '${op.key}' was already used with different input (or by another tool); use a new operation_key for new input, and reuse a key only to retry the identical call.`,
        { param: 'operation_key', retryable: false });
    case 'in_progress':
      throw new UseCaseError('conflict', 'idempotency_error', 'idempotency_key_in_use',
        `The first call with operation_key '${op.key}' is still running; retry the identical call in a moment to get its result.`,
        { param: 'operation_key', retryable: true, retryAfterSeconds: 1 });
    case 'started':
      break;
  }
  let result: T;
  try {
    result = await run();
  } catch (err) {
    await ctx.store.idempotency.abandon(caller.accountId, key).catch(() => false);
    throw err;
  }
  // not an HTTP exchange: no status to replay, only the result
  await ctx.store.idempotency.finish(caller.accountId, key, { status: 0, body: result });
  return result;
}
