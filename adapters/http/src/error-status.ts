// The one mapping from a use case's error kind to its HTTP status, for every HTTP transport: the
// REST API and MCP answer with it, the web site's pages too, so a refusal reads the same wherever
// it is met (docs/api.md "Errors").
import type { ErrorKind } from '@kerf/usecases';

export const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = {
  malformed: 400,
  invalid: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  payment_required: 402,
  rate_limited: 429,
  unavailable: 503,
  insufficient_storage: 507,
  internal: 500,
};

export function statusOfKind(kind: ErrorKind): number {
  return STATUS_BY_KIND[kind];
}
