// The hosted MCP server as a fastify plugin: {base_url}/mcp over Streamable HTTP (the SDK's handler
// serves both protocol eras: 2026-07-28 stateless requests and 2025-era initialize + calls), bearer
// auth through the use cases' `authenticate`, and the upload link prepare_upload hands out (PUT the
// bytes; GET shows a page where a person picks the file).
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import { rateLimitHeaders, requestSubject, signedLinkSubject, whileClientWaits } from '@kerf/http';
import { authenticate, MAX_PREPARED_UPLOAD_BYTES, parseBearer, receiveUpload, UseCaseError, type Caller, type RateLimiter, type UseCaseContext } from '@kerf/usecases';
import { removeSpooled, spoolDirOf, spoolUpload } from '@kerf/usecases';
import type { Readable } from 'node:stream';
import { createKerfMcpServer, MCP_SCOPES } from './server.ts';
import { uploadPage, UPLOAD_PAGE_HEADERS } from './upload-page.ts';

export const MCP_PATH = '/mcp';
export const UPLOAD_PATH = '/mcp/uploads';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Largest JSON-RPC message, bytes (files never travel in messages). */
const MESSAGE_LIMIT = 4 * 1024 * 1024;

export interface McpHttpOptions {
  useCases: UseCaseContext;
  /** Public base URL without a trailing slash. */
  baseUrl: string;
  /** HTTP status of a use-case error (the REST adapter's mapping, handed over by the service). */
  statusOf(err: UseCaseError): number;
  /** Origins a browser may call from; default the base URL's own. Requests without Origin are not browsers and pass. */
  allowedOrigins?: string[];
  /** Counts each request against its verified credential's account (an upload link: that link), else its client address; the service's one limiter, shared with the REST API. None: no limit. */
  rateLimiter?: RateLimiter;
}

function bearer(request: FastifyRequest): { token: string | null; malformed: boolean } {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return { token: null, malformed: false };
  const token = parseBearer(h);
  return { token, malformed: token === null };
}

function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [k, v] of Object.entries(request.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  return headers;
}

export const mcpHttp: FastifyPluginAsync<McpHttpOptions> = async (app: FastifyInstance, options: McpHttpOptions) => {
  const ctx = options.useCases;
  const base = options.baseUrl.replace(/\/+$/, '');
  const origins = new Set(options.allowedOrigins ?? [new URL(base).origin]);
  // a service on this machine is also called from this machine's other ports (a local inspector)
  const loopback = (url: string): boolean => { try { return LOOPBACK.has(new URL(url).hostname); } catch { return false; } };
  const originAllowed = (origin: string): boolean => origins.has(origin) || (loopback(base) && loopback(origin));
  const resourceMetadata = `${base}/.well-known/oauth-protected-resource`;
  const challenge = `Bearer resource_metadata="${resourceMetadata}", scope="${MCP_SCOPES.join(' ')}"`;
  const uploadUrl = (token: string): string => `${base}${UPLOAD_PATH}/${token}`;

  const handler = createMcpHandler(({ authInfo }) => {
    const caller = authInfo?.extra?.caller as Caller | undefined;
    if (!caller) throw new Error('MCP request without an authenticated caller');
    // previews render while the client waits: abandoned with its connection (set per request below)
    const requestCtx = (authInfo?.extra?.ctx as UseCaseContext | undefined) ?? ctx;
    return createKerfMcpServer({ ctx: requestCtx, caller, uploads: { mode: 'hosted', uploadUrl, browserUploadUrl: uploadUrl } });
  }, { legacy: 'stateless', maxRequestBodySize: MESSAGE_LIMIT, onerror: (err) => ctx.log.info({ err: err.message }, 'MCP request rejected') });
  app.addHook('onClose', async () => { await handler.close(); });

  const sendError = (reply: FastifyReply, err: UseCaseError, headers: Record<string, string> = {}): FastifyReply => {
    if (err.retryAfterSeconds !== null) reply.header('retry-after', String(err.retryAfterSeconds));
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    return reply.code(options.statusOf(err)).type('application/json').send({
      error: { type: err.type, code: err.code, message: err.message, param: err.param, details: err.details, request_id: reply.request.id, retryable: err.retryable },
    });
  };
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (err instanceof UseCaseError) return sendError(reply, err);
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // only MCP messages are parsed by fastify: upload PUTs are streamed to disk and measured there
      return sendError(reply, new UseCaseError('too_large', 'invalid_request_error', 'file_too_large', `The body exceeds the limit (${MESSAGE_LIMIT} bytes for an MCP message).`));
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, new UseCaseError('unsupported_media', 'invalid_request_error', 'unsupported_media_type', `Content-Type '${String(request.headers['content-type'])}' cannot be read; send the file as application/octet-stream.`));
    if (err.statusCode && err.statusCode < 500) return sendError(reply, new UseCaseError('malformed', 'invalid_request_error', 'invalid_request', err.message));
    request.log.error({ err }, 'MCP transport failed');
    return sendError(reply, new UseCaseError('internal', 'api_error', 'internal_error', 'An unexpected error occurred; retry the request.'));
  });

  // Authentication before the limiter, both before the body is read: a request counts against the
  // account its credential verifies as, else against its address (a wrong or random token too).
  const authenticated = new WeakMap<FastifyRequest, { caller: Caller; token: string } | { error: UseCaseError; token: string | null }>();
  const limit = async (reply: FastifyReply, subject: string): Promise<void> => {
    if (options.rateLimiter) reply.headers(rateLimitHeaders(await options.rateLimiter.take(subject)));
  };
  const authenticateAndLimit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const { token, malformed } = bearer(request);
    let caller: Caller | null = null;
    try {
      caller = await authenticate(ctx.store, token, malformed);
      authenticated.set(request, { caller, token: token! });
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      authenticated.set(request, { error: err, token });
    }
    await limit(reply, requestSubject(caller, request.ip));
  };
  // an upload link is the PUT's credential: a valid one counts apart, anything else against the address
  const limitUpload = async (request: FastifyRequest, reply: FastifyReply): Promise<void> =>
    limit(reply, signedLinkSubject(ctx.signer, (request.params as { token?: string }).token) ?? requestSubject(null, request.ip));

  // The SDK reads the message itself (content type, JSON-RPC shape); uploads are raw bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: MCP_PATH,
    bodyLimit: MESSAGE_LIMIT,
    onRequest: authenticateAndLimit,
    onSend: async (request, reply, payload) => {
      const auth = authenticated.get(request);
      return auth && 'caller' in auth ? noStore(reply, payload) : payload;
    },
    handler: async (request, reply) => {
      const origin = request.headers.origin;
      if (typeof origin === 'string' && !originAllowed(origin)) {
        return sendError(reply, new UseCaseError('forbidden', 'permission_error', 'origin_not_allowed', `Requests from origin '${origin}' are not allowed.`));
      }
      const auth = authenticated.get(request)!;
      if ('error' in auth) {
        // a standard client follows resource_metadata to the authorization server and connects by itself
        return sendError(reply, auth.error, { 'www-authenticate': auth.token ? `${challenge}, error="invalid_token"` : challenge });
      }
      const caller = auth.caller;
      const authInfo: AuthInfo = { token: auth.token, clientId: caller.credentialId ?? caller.via, scopes: [...caller.scopes], resourceMetadataUrl: resourceMetadata, extra: { caller, ctx: whileClientWaits(ctx, reply.raw) } };
      const body = request.body as Buffer | undefined;
      const web = new Request(`${base}${request.url}`, {
        method: request.method, headers: webHeaders(request), ...(body && request.method === 'POST' ? { body: Uint8Array.from(body) } : {}),
      });
      const response = await handler.fetch(web, { authInfo });
      return reply.send(response);
    },
  });

  // The PUT's body is spooled to disk as it arrives (size and SHA-256 taken on the way) and handed to
  // the use case as that file, never read whole into memory; removed once answered.
  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    uploads.put<{ Params: { token: string } }>(`${UPLOAD_PATH}/:token`, { onRequest: limitUpload }, async (request, reply) => {
      if (Number(request.headers['content-length'] ?? 0) > MAX_PREPARED_UPLOAD_BYTES) throw uploadTooLarge();
      const { path, done } = spoolUpload(request.body as Readable, spoolDirOf(ctx), MAX_PREPARED_UPLOAD_BYTES);
      // the spool is gone before the answer leaves: a client that has its 201 finds nothing left behind
      let design;
      try {
        const file = await done.catch((err: unknown) => { throw err instanceof UseCaseError && err.code === 'file_too_large' ? uploadTooLarge() : err; });
        design = await receiveUpload(ctx, { token: request.params.token, bytes: file });
      } finally {
        await removeSpooled(path);
      }
      return reply.code(201).type('application/json').send({
        design_id: design.id, status: design.status, name: design.name,
        next: `Call the inspect_design tool with design_id ${design.id} until the design is ready.`,
      });
    });
  });

  app.get<{ Params: { token: string } }>(`${UPLOAD_PATH}/:token`, { onRequest: limitUpload }, async (_request, reply) => {
    return reply.type('text/html; charset=utf-8').headers(UPLOAD_PAGE_HEADERS).send(uploadPage(MAX_PREPARED_UPLOAD_BYTES));
  });
};

/**
 * An account's MCP answers must not sit in shared caches, as REST's authenticated JSON (#16.9). The
 * SDK's answers are web Responses whose headers fastify copies after onSend (a stream says
 * `no-cache, no-transform`), so the header is set on a Response of our own; `no-transform` is kept.
 */
function noStore(reply: FastifyReply, payload: unknown): unknown {
  if (!(payload instanceof Response)) {
    reply.header('cache-control', /no-transform/i.test(String(reply.getHeader('cache-control') ?? '')) ? 'no-store, no-transform' : 'no-store');
    return payload;
  }
  const headers = new Headers(payload.headers);
  headers.set('cache-control', /no-transform/i.test(headers.get('cache-control') ?? '') ? 'no-store, no-transform' : 'no-store');
  return new Response(payload.body, { status: payload.status, statusText: payload.statusText, headers });
}

/** An upload PUT over the limit, whether its Content-Length says so or the spool finds out. */
function uploadTooLarge(): UseCaseError {
  return new UseCaseError('too_large', 'invalid_request_error', 'file_too_large', `The body exceeds the limit (${MAX_PREPARED_UPLOAD_BYTES} bytes, 50 MiB, for an upload).`);
}
