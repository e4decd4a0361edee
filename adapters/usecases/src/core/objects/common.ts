// The shapes every part of the API shares: the error envelope, a page of a list, the health answer.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ERROR_TYPES } from '../errors.ts';
import { Code, Message, enumOf } from '@kerf/contract';

export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    type: enumOf(ERROR_TYPES, { description: `The error's category: ${ERROR_TYPES.map((t) => `\`${t}\``).join(', ').replace(/, ([^,]+)$/, ' or $1')}; \`code\` says exactly what went wrong.` }),
    code: Code,
    message: Message,
    param: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'The parameter at fault, e.g. `items[0].quantity`, or null.' }),
    details: Type.Unsafe<Record<string, unknown> | null>({ type: ['object', 'null'], description: 'Facts behind the message: measured values, limits, matching ids; `issues` for a parameter error.' }),
    request_id: Type.String({ description: 'This request\'s id (also the Request-Id header); quote it when asking for help.' }),
    retryable: Type.Boolean({ description: 'Whether the same request may succeed later (see Retry-After).' }),
    doc_url: Type.String({ description: 'The error reference entry for this code.' }),
  }, { description: 'What went wrong.' }),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/** The paging fields of a list: `has_more`, `next_cursor` (and `object`). */
export const page = {
  object: Type.Literal('list', { description: 'The object\'s type name.' }),
  has_more: Type.Boolean({ description: 'Whether another page follows (use `next_cursor`).' }),
  next_cursor: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last.' }),
};

/** A page of a list of `item`, as every list endpoint returns it. */
export const listOf = <T extends TSchema>(item: T) => Type.Object({
  object: page.object,
  data: Type.Array(item, { description: 'The items of this page.' }),
  has_more: page.has_more,
  next_cursor: page.next_cursor,
});
const AnyList = listOf(Type.Unknown());
export type ListEnvelope<T> = Omit<Static<typeof AnyList>, 'data'> & { data: T[] };

export const Health = Type.Object({
  ok: Type.Boolean({ description: 'Whether the service can serve requests (its store is reachable and it is not shutting down).' }),
  store: Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'What the store reports: `ok`, its `kind`, and what failed.' }),
  version: Type.String({ description: 'The API version this service speaks, as in the `Kerf-Version` response header.' }),
});
export type Health = Static<typeof Health>;
