// Requests Node's HTTP parser refuses before fastify sees them (a URL or headers too long, a body that
// does not match its Content-Length, bytes that are not HTTP) are answered in the same error envelope
// as everything else, written straight to the socket: there is no request object to reply through.
import type { Socket } from 'node:net';
import { envelope } from './envelope.ts';
import { HttpError } from './http-errors.ts';

/** Longest request line (method, URL, version) we call a header overflow rather than a URL too long. */
const MAX_REQUEST_LINE = 8 * 1024;

interface ParserError extends Error { code?: string; rawPacket?: Buffer | unknown }

function classify(err: ParserError): HttpError {
  const code = err.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW') {
    const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : null;
    const lineEnd = raw ? raw.indexOf('\r\n') : -1;
    if (raw && (lineEnd < 0 ? raw.length : lineEnd) > MAX_REQUEST_LINE) {
      return new HttpError(414, 'invalid_request_error', 'invalid_request', 'The request URL is too long.');
    }
    return new HttpError(431, 'invalid_request_error', 'invalid_request', 'The request headers are too large.');
  }
  if (/CONTENT_LENGTH|EOF|CHUNK/.test(code)) {
    return new HttpError(400, 'invalid_request_error', 'invalid_content_length', 'The body does not match its Content-Length (or its chunked encoding).');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new HttpError(408, 'invalid_request_error', 'invalid_request', 'The request was not received in time.');
  }
  return new HttpError(400, 'invalid_request_error', 'invalid_request', 'The request is not valid HTTP.');
}

/** fastify's clientErrorHandler: the envelope with a status from the parser's error, then close. */
export function answerClientError(err: ParserError, socket: Socket, baseUrl: string, requestId: string): void {
  // nothing to answer on a connection the client already dropped
  if (err.code === 'ECONNRESET' || !socket.writable) { socket.destroy(); return; }
  const e = classify(err);
  const body = JSON.stringify(envelope(e, requestId, baseUrl));
  socket.end(`HTTP/1.1 ${e.status} ${STATUS_TEXT[e.status] ?? 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    + `X-Content-Type-Options: nosniff\r\nRequest-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`);
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };
