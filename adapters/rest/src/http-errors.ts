// A use case's error says what went wrong (its kind); @kerf/http's STATUS_BY_KIND says how HTTP spells
// it (docs/api.md "Errors"). Errors born in the HTTP layer itself (routing, protocol faults) carry
// their own status.
import { STATUS_BY_KIND } from '@kerf/http';
import { UseCaseError, type ErrorKind, type ErrorType, type UseCaseErrorOptions } from '@kerf/usecases';

export { STATUS_BY_KIND };

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
