// HTTP statuses live here: a use case's error says what went wrong (its kind), this says how HTTP
// spells it (docs/api.md "Errors"). Errors born in the HTTP layer itself carry their status.
import { UseCaseError, type ErrorKind, type ErrorType, type UseCaseErrorOptions } from '@kerf/usecases';

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
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
  internal: 500,
};

/** Protocol faults answered before routing (client-errors.ts) carry statuses of their own besides their kind's. */
export const EXTRA_STATUSES: Record<string, number[]> = { invalid_request: [408, 414, 431] };

const KIND_BY_STATUS = new Map<number, ErrorKind>(Object.entries(STATUS_BY_KIND).map(([k, s]) => [s, k as ErrorKind]));

/** An error of the HTTP layer (routing, media types, protocol faults) with the status it answers. */
export class HttpError extends UseCaseError {
  readonly status: number;
  constructor(status: number, type: ErrorType, code: string, message: string, options: UseCaseErrorOptions = {}) {
    super(KIND_BY_STATUS.get(status) ?? (status >= 500 ? 'internal' : 'malformed'), type, code, message, options);
    this.status = status;
  }
}

export function statusOf(err: UseCaseError): number {
  return err instanceof HttpError ? err.status : STATUS_BY_KIND[err.kind];
}
