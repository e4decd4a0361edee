// Errors a use case can end in, classified without any transport in mind (docs/api.md "Errors"):
// `type` is the contract's category, `kind` says what went wrong. REST maps the kind to an HTTP
// status, MCP to a tool error, the CLI to an exit code, the web site to a message.

export const ERROR_TYPES = [
  'invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'idempotency_error', 'rate_limit_error', 'payment_error', 'api_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export type ErrorKind =
  /** the request cannot be read at all (bad JSON, a cursor we never issued) */
  | 'malformed'
  /** the request was read and a field is wrong (`param` names it) */
  | 'invalid'
  /** no credential, or one we do not know */
  | 'unauthenticated'
  /** the credential may not do this */
  | 'forbidden'
  | 'not_found'
  /** the resource is in a state that refuses this (expired, changed meanwhile, key reused) */
  | 'conflict'
  | 'too_large'
  | 'unsupported_media'
  | 'payment_required'
  | 'rate_limited'
  /** a dependency cannot do it now; retry later */
  | 'unavailable'
  /** the service's disk is full: nothing was kept; retry later */
  | 'insufficient_storage'
  | 'internal';

export interface UseCaseErrorOptions {
  param?: string | null;
  details?: Record<string, unknown> | null;
  retryable?: boolean;
  /** when a retry may succeed, seconds */
  retryAfterSeconds?: number;
}

export class UseCaseError extends Error {
  readonly kind: ErrorKind;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly details: Record<string, unknown> | null;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | null;

  constructor(kind: ErrorKind, type: ErrorType, code: string, message: string, options: UseCaseErrorOptions = {}) {
    super(message);
    this.name = 'UseCaseError';
    this.kind = kind;
    this.type = type;
    this.code = code;
    this.param = options.param ?? null;
    this.details = options.details ?? null;
    this.retryable = options.retryable ?? (kind === 'unavailable' || kind === 'internal' || kind === 'rate_limited');
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}

export const notFound = (what: string, id: string, param: string | null = null): UseCaseError =>
  new UseCaseError('not_found', 'not_found_error', 'resource_missing', `No ${what} with id '${id}'.`, { param });

export const invalid = (code: string, message: string, param: string | null = null, details: Record<string, unknown> | null = null): UseCaseError =>
  new UseCaseError('invalid', 'invalid_request_error', code, message, { param, details });

export const malformed = (code: string, message: string, param: string | null = null): UseCaseError =>
  new UseCaseError('malformed', 'invalid_request_error', code, message, { param });

export const unavailable = (code: string, message: string, retryAfterSeconds: number): UseCaseError =>
  new UseCaseError('unavailable', 'api_error', code, message, { retryable: true, retryAfterSeconds });

export const fileUnavailable = (message: string, param: string | null = null): UseCaseError =>
  new UseCaseError('not_found', 'not_found_error', 'file_unavailable', message, { param });

export const internalError = (): UseCaseError =>
  new UseCaseError('internal', 'api_error', 'internal_error', 'An unexpected error occurred; it is safe to retry with the same Idempotency-Key.', { retryable: true });

/** The disk filled while a write was kept (nothing of it was): 507, retry later. */
export const insufficientStorage = (): UseCaseError =>
  new UseCaseError('insufficient_storage', 'api_error', 'insufficient_storage',
    'The service ran out of disk space and kept nothing of this request; retry later.', { retryable: true, retryAfterSeconds: 60 });
