// The error envelope of contract.md and the mapping of every failure (ours, fastify's, plugins')
// onto it, so that no route ever answers with a shape of its own.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorType } from '@kerf/usecases/errors.ts';

/** The service's own error reference (routes/error-docs.ts), so doc_url works on any deployment. */
export const ERROR_DOCS_PATH = '/docs/errors';

export const errorDocUrl = (baseUrl: string, code: string): string => `${baseUrl}${ERROR_DOCS_PATH}#${code}`;

export interface ErrorBody {
  error: {
    type: ErrorType;
    code: string;
    message: string;
    param: string | null;
    details: Record<string, unknown> | null;
    request_id: string;
    retryable: boolean;
    doc_url: string;
  };
}

/** `baseUrl`: the service's public base URL, without a trailing slash. */
export function envelope(err: ApiError, requestId: string, baseUrl: string): ErrorBody {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: err.message,
      param: err.param,
      details: err.details,
      request_id: requestId,
      retryable: err.retryable,
      doc_url: errorDocUrl(baseUrl, err.code),
    },
  };
}

interface AjvIssue { keyword: string; instancePath: string; params: Record<string, unknown>; message?: string }

/** `items[0].quantity` from `/items/0/quantity`, with the offending key for required/additional. */
function paramOf(issue: AjvIssue, context: string | undefined): string | null {
  const parts = issue.instancePath.split('/').filter(Boolean);
  if (issue.keyword === 'required') parts.push(String(issue.params.missingProperty));
  if (issue.keyword === 'additionalProperties') parts.push(String(issue.params.additionalProperty));
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  if (!out && context === 'body') return null;
  return out || null;
}

function codeOf(issue: AjvIssue): string {
  if (issue.keyword === 'required') return 'parameter_missing';
  if (issue.keyword === 'additionalProperties') return 'parameter_unknown';
  return 'parameter_invalid';
}

function messageOf(issue: AjvIssue, param: string | null, context: string | undefined): string {
  const where = param ? `'${param}'` : context === 'body' ? 'the request body' : `the ${context ?? 'request'}`;
  if (issue.keyword === 'required') return `Missing required parameter ${where}.`;
  if (issue.keyword === 'additionalProperties') return `Unknown parameter ${where}.`;
  return `Invalid ${where}: ${issue.message ?? 'not valid'}.`;
}

/** Classify anything thrown while handling a request. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (e && Array.isArray(e.validation) && e.validation.length > 0) {
    const issue = e.validation[0];
    const param = paramOf(issue, e.validationContext);
    return new ApiError(422, 'invalid_request_error', codeOf(issue), messageOf(issue, param, e.validationContext), {
      param,
      details: { location: e.validationContext ?? null, issues: e.validation.slice(0, 20).map((i) => ({ param: paramOf(i, e.validationContext), keyword: i.keyword, message: i.message ?? null })) },
    });
  }
  const code = e?.code;
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError(415, 'invalid_request_error', 'unsupported_media_type', 'Unsupported Content-Type for this operation.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return new ApiError(413, 'invalid_request_error', 'file_too_large', 'The request body or uploaded file exceeds the size limit.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_request_error', 'invalid_json', 'The JSON body is empty.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'invalid_request_error', 'invalid_content_length', 'Content-Length does not match the body.');
  }
  const status = e?.statusCode;
  if (status === 429) {
    return new ApiError(429, 'rate_limit_error', 'rate_limit_exceeded', e.message || 'Too many requests.', { retryable: true });
  }
  if (e instanceof SyntaxError || (status === 400 && /JSON/i.test(e?.message ?? ''))) {
    return new ApiError(400, 'invalid_request_error', 'invalid_json', `The body is not valid JSON: ${e.message}`);
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(status, 'invalid_request_error', 'invalid_request', e.message || 'Malformed request.');
  }
  if (code === 'engine_unavailable') {
    return new ApiError(503, 'api_error', 'engine_unavailable', `${e.message}; retry later.`, { retryable: true, headers: { 'retry-after': '30' } });
  }
  if (code === 'queue_full') {
    return new ApiError(503, 'api_error', 'service_unavailable', 'The analysis queue is full; retry later.', { retryable: true, headers: { 'retry-after': '5' } });
  }
  return new ApiError(500, 'api_error', 'internal_error', 'An unexpected error occurred; it is safe to retry with the same Idempotency-Key.', { retryable: true });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown, baseUrl: string): FastifyReply {
  const apiErr = toApiError(err);
  if (apiErr.status >= 500) request.log.error({ err }, 'request failed');
  else request.log.info({ code: apiErr.code, status: apiErr.status }, 'request rejected');
  for (const [k, v] of Object.entries(apiErr.headers)) reply.header(k, v);
  return reply.code(apiErr.status).type('application/json').send(envelope(apiErr, request.id, baseUrl));
}
