// Errors a use case can end in, already classified the way every adapter reports them
// (contract.md "Errors"): REST maps them to the envelope, MCP to tool errors, the CLI to exit codes.

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'payment_error'
  | 'api_error';

export interface ApiErrorOptions {
  param?: string | null;
  details?: Record<string, unknown> | null;
  retryable?: boolean;
  /** extra response headers, e.g. Retry-After */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly details: Record<string, unknown> | null;
  readonly retryable: boolean;
  readonly headers: Record<string, string>;

  constructor(status: number, type: ErrorType, code: string, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = options.param ?? null;
    this.details = options.details ?? null;
    this.retryable = options.retryable ?? (status >= 500 || status === 429);
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what: string, id: string, param: string | null = null): ApiError =>
  new ApiError(404, 'not_found_error', 'resource_missing', `No ${what} with id '${id}'.`, { param });

export const invalid = (code: string, message: string, param: string | null = null, details: Record<string, unknown> | null = null): ApiError =>
  new ApiError(422, 'invalid_request_error', code, message, { param, details });

export const malformed = (code: string, message: string, param: string | null = null): ApiError =>
  new ApiError(400, 'invalid_request_error', code, message, { param });
