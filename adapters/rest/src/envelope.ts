// The error envelope (docs/api.md "Errors") and the mapping of every failure (ours, fastify's, plugins')
// onto it, so that no route ever answers with a shape of its own.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { UseCaseError, insufficientStorage, internalError, validationError, type objects, type ValidationIssue } from '@kerf/usecases';
import { isDiskFull } from '@kerf/store';
import { HttpError, statusOf } from './http-errors.ts';

/** The service's own error reference (routes/error-docs.ts), so doc_url works on any deployment. */
export const ERROR_DOCS_PATH = '/docs/errors';

const errorDocUrl = (baseUrl: string, code: string): string => `${baseUrl}${ERROR_DOCS_PATH}#${code}`;

/** The error envelope (its schema: the use cases' objects.ErrorEnvelope). */
export type ErrorBody = objects.ErrorEnvelope;

/** `baseUrl`: the service's public base URL, without a trailing slash. */
export function envelope(err: UseCaseError, requestId: string, baseUrl: string): ErrorBody {
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

/** A byte count as a person reads it: 50 MiB, 64 KiB, 512 bytes. */
function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

const FILE_LIMIT_CODES = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_PARTS_LIMIT', 'FST_FILES_LIMIT']);

/** A 413 that says which limit was passed (the upload's, or the JSON body's); other errors as they are. */
export function withSizeLimits(err: unknown, limits: { uploadBytes: number; bodyBytes: () => number }): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new HttpError(413, 'invalid_request_error', 'file_too_large', `The uploaded file is larger than the limit of ${formatBytes(limits.uploadBytes)} (${limits.uploadBytes} bytes).`);
  }
  if (typeof code === 'string' && FILE_LIMIT_CODES.has(code)) {
    return new HttpError(413, 'invalid_request_error', 'file_too_large', 'The multipart body has more files or parts than allowed: send one `file` part and the form fields.');
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    // read only here: a request refused before routing has no route options to read
    const bytes = limits.bodyBytes();
    return new HttpError(413, 'invalid_request_error', 'file_too_large', `The request body is larger than the limit of ${formatBytes(bytes)} (${bytes} bytes).`);
  }
  return err;
}

/** Classify anything thrown while handling a request. */
export function toUseCaseError(err: unknown): UseCaseError {
  if (err instanceof UseCaseError) return err;
  const e = err as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (e && Array.isArray(e.validation) && e.validation.length > 0) return validationError(e.validation, e.validationContext);
  const code = e?.code;
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, 'invalid_request_error', 'unsupported_media_type', 'Unsupported Content-Type: send application/json, or for an upload multipart/form-data with the STEP file in a part named `file`.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return new HttpError(413, 'invalid_request_error', 'file_too_large', 'The request body or uploaded file exceeds the size limit.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpError(400, 'invalid_request_error', 'invalid_json', 'The JSON body is empty.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError(400, 'invalid_request_error', 'invalid_content_length', 'Content-Length does not match the body.');
  }
  const status = e?.statusCode;
  if (status === 429) {
    return new HttpError(429, 'rate_limit_error', 'rate_limit_exceeded', e.message || 'Too many requests.', { retryable: true });
  }
  if (e instanceof SyntaxError || (status === 400 && /JSON/i.test(e?.message ?? ''))) {
    return new HttpError(400, 'invalid_request_error', 'invalid_json', `The body is not valid JSON: ${e.message}`);
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, 'invalid_request_error', 'invalid_request', e.message || 'Malformed request.');
  }
  if (isDiskFull(err)) return insufficientStorage();
  if (code === 'engine_unavailable') {
    return new HttpError(503, 'api_error', 'engine_unavailable', `${e.message}; retry later.`, { retryable: true, retryAfterSeconds: 30 });
  }
  if (code === 'queue_full') {
    return new HttpError(503, 'api_error', 'service_unavailable', 'The analysis queue is full; retry later.', { retryable: true, retryAfterSeconds: 5 });
  }
  return internalError();
}

/** Headers an error's status calls for (RFC 9110 Retry-After, RFC 6750 WWW-Authenticate). */
function errorHeaders(err: UseCaseError, status: number, baseUrl: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (err.retryAfterSeconds !== null) headers['retry-after'] = String(err.retryAfterSeconds);
  // RFC 9728: where a client finds the authorization server for this API
  const metadata = `resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"`;
  if (status === 401) headers['www-authenticate'] = err.code === 'invalid_api_key' ? `Bearer realm="kerf", error="invalid_token", ${metadata}` : `Bearer realm="kerf", ${metadata}`;
  if (err.code === 'insufficient_scope' && typeof err.details?.required_scope === 'string') {
    headers['www-authenticate'] = `Bearer realm="kerf", error="insufficient_scope", scope="${err.details.required_scope}", ${metadata}`;
  }
  return headers;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown, baseUrl: string): FastifyReply {
  const e = toUseCaseError(err);
  const status = statusOf(e);
  // a client that went away (its work dropped) is not a failure of ours
  if (reply.raw.destroyed) request.log.info({ code: e.code, status }, 'client went away before the answer');
  else if (status >= 500) request.log.error({ err }, 'request failed');
  else request.log.info({ code: e.code, status }, 'request rejected');
  for (const [k, v] of Object.entries(errorHeaders(e, status, baseUrl))) reply.header(k, v);
  return reply.code(status).type('application/json').send(envelope(e, request.id, baseUrl));
}
