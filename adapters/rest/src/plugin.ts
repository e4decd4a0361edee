// The /v1 API as a fastify plugin: error envelope, strict validation, bearer auth, rate limit,
// idempotency, multipart uploads, OpenAPI, and the routes, all inside the plugin's own context. The
// service creates the fastify instance and registers this plugin with the use-case context.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { rateLimitHeaders, requestSubject } from '@kerf/http';
import { jsonPayload, schemas, spoolDirOf, type RateLimiter, type UseCaseContext } from '@kerf/usecases';
import { authenticateRequest } from './auth.ts';
import { ERROR_DOCS_PATH, sendError, withSizeLimits } from './envelope.ts';
import { HttpError } from './http-errors.ts';
import { answerResumed, beginIdempotent, endIdempotent, finishIdempotent, idempotentContext, withinRun } from './idempotency.ts';
import { hasSpools, readMultipart, removeSpools } from './multipart.ts';
import { describeBodies } from './openapi.ts';
import { validatorCompiler } from './validation.ts';
import { catalogRoutes } from './routes/catalogs.ts';
import { designRoutes } from './routes/designs.ts';
import { dfmRoutes } from './routes/dfm.ts';
import { quoteRoutes } from './routes/quotes.ts';
import { reviewLinkRoutes } from './routes/review-links.ts';
import { downloadRoutes } from './routes/downloads.ts';
import { reviewPageRoutes } from './routes/review-page.ts';
import { healthRoutes } from './routes/health.ts';
import { errorDocRoutes } from './routes/error-docs.ts';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.ts';
import { applySecurity } from './scopes.ts';
import { accountRoutes } from './routes/account.ts';
import { cartRoutes } from './routes/carts.ts';
import { orderRoutes } from './routes/orders.ts';
import { adminRoutes } from './routes/admin.ts';
import { dropshipRoutes } from './routes/dropship.ts';
import { adminDropshipRoutes } from './routes/admin-dropship.ts';
import { API_VERSION_HEADER_VALUE } from './version.ts';

export const API_VERSION = API_VERSION_HEADER_VALUE;
export const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Largest JSON body, bytes (uploads have their own limit). */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** Longest path parameter the routes take: signed download tokens run to a few hundred characters. */
export const MAX_PARAM_LENGTH = 4096;

export interface RestOptions {
  useCases: UseCaseContext;
  /** Public base URL without a trailing slash (OpenAPI servers, error doc_url). */
  baseUrl: string;
  maxUploadBytes?: number;
  /** Where uploads wait while they arrive (default the context's uploadSpoolDir, which the janitor sweeps: spoolDirOf). */
  uploadSpoolDir?: string;
  /** How long a request's Idempotency-Key stays held without renewal (its process died), ms. */
  idempotencyLeaseMs?: number;
  /** Counts each request against its account (or client address without a verified credential); the service's one limiter, shared with the other transports. None: no limit. */
  rateLimiter?: RateLimiter;
}

/** Route-level switches, read by the plugin's hooks. */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer needed (signed downloads, docs). */
    public?: boolean;
    /** Accepted request bodies; other Content-Types are 415. */
    accepts?: Array<'json' | 'multipart'>;
    /** POST that honours Idempotency-Key. */
    idempotent?: boolean;
  }
}

export const restApi: FastifyPluginAsync<RestOptions> = async (app: FastifyInstance, options: RestOptions) => {
  const ctx = idempotentContext(options.useCases);
  const baseUrl = options.baseUrl;
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;

  // Responses are sent as built: response schemas document the API, they must not drop fields.
  // jsonPayload: a settled DFM report a quote embeds is serialised and encoded once, not per response (the quote cache keeps its text).
  app.setSerializerCompiler(() => (data) => jsonPayload(data) as string);
  app.setValidatorCompiler(validatorCompiler([]));
  app.setErrorHandler(async (err, request, reply) => {
    try {
      if (await answerResumed(app, request, reply, err)) return reply;
    } catch (e) {
      return sendError(request, reply, e, baseUrl);
    }
    return sendError(request, reply, withSizeLimits(err, { uploadBytes: maxUploadBytes, bodyBytes: () => request.routeOptions?.bodyLimit ?? JSON_BODY_LIMIT }), baseUrl);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new HttpError(404, 'invalid_request_error', 'route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`), baseUrl));

  // Every route of this plugin: the JSON body limit, and a stable operation id for client generators (OpenAPI).
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= JSON_BODY_LIMIT;
    if (route.config?.idempotent) {
      const handler = route.handler;
      route.handler = function (this: FastifyInstance, request, reply) { return withinRun(request, () => handler.call(this, request, reply)); };
    }
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema || schema.hide || schema.operationId) return;
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    schema.operationId = OPERATION_IDS[`${method} ${route.url}`] ?? `${String(method).toLowerCase()}${route.url.replace(/\/:?([a-z_-]+)/gi, (_m, w: string) => w.charAt(0).toUpperCase() + w.slice(1).replace(/[-_](.)/g, (_x, c: string) => c.toUpperCase()))}`;
  });

  // A body-less request that still says Content-Type: application/json (clients send it on DELETE,
  // some on GET and POST) is routed as having no body, not refused as invalid JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') { done(null, undefined); return; }
    parseJson(request, body as string, done);
  });

  await app.register(multipart, {
    limits: { fileSize: maxUploadBytes, files: 4, fields: 20, fieldSize: JSON_BODY_LIMIT, parts: 30 },
  });

  // One hook per phase, in callback form, answering at once when it has nothing to do: every
  // request passes each of them, and an async hook costs a promise and a tick.
  // Authentication runs first so the limiter can count by account; a failed authentication is
  // counted against the client address and refused after the limiter (preParsing), so guessing
  // keys is limited like any other request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('request-id', request.id);
    reply.header('kerf-version', API_VERSION);
    if (request.routeOptions.config?.public || isPublicUrl(request.url) || !request.routeOptions.url) { done(); return; }
    authenticateRequest(ctx.store, request).then(
      (caller) => { request.caller = caller; done(); },
      (err: unknown) => { request.authError = err; done(); },
    );
  });

  const limiter = options.rateLimiter;
  if (limiter) {
    app.addHook('onRequest', async (request, reply) => {
      // load balancers' health probes are not clients
      if (request.url.startsWith('/v1/health')) return;
      reply.headers(rateLimitHeaders(await limiter.take(requestSubject(request.caller, request.ip))));
    });
  }

  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.authError) done(request.authError as Error);
    else done(null, payload);
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const accepts = request.routeOptions.config?.accepts;
    if (!accepts) { done(); return; }
    const isMultipart = request.isMultipart();
    const ct = String(request.headers['content-type'] ?? '');
    const isJson = /^application\/(.+\+)?json\b/i.test(ct);
    if ((isMultipart && !accepts.includes('multipart')) || (!isMultipart && !(isJson && accepts.includes('json')))) {
      done(new HttpError(415, 'invalid_request_error', 'unsupported_media_type',
        `Content-Type must be ${accepts.map((a) => (a === 'json' ? 'application/json' : 'multipart/form-data')).join(' or ')}${accepts.includes('multipart') ? ' (multipart: the STEP file in a part named `file`)' : ''}.`));
      return;
    }
    if (!isMultipart) { done(); return; }
    readMultipart(request, options.uploadSpoolDir ?? spoolDirOf(ctx)).then((body) => { request.body = body; done(); }, done);
  });

  app.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST' || !request.routeOptions.config?.idempotent || request.headers['idempotency-key'] === undefined) { done(); return; }
    // a replay or conflict is answered here (sent): the handler must not run
    beginIdempotent(ctx.store, request, reply, options.idempotencyLeaseMs).then((sent) => { if (!sent) done(); }, done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // An account's data must not sit in shared caches (proxies, the browser's disk cache).
    if (request.caller && !reply.hasHeader('cache-control') && /json/.test(String(reply.getHeader('content-type') ?? ''))) reply.header('cache-control', 'no-store');
    // the handler is done with the spooled upload once its answer is on the way (onResponse:
    // whatever ended without one); the janitor sweeps what a crash leaves
    if (!hasSpools(request) && !request.idempotencyKey) { done(null, payload); return; }
    (async () => {
      await removeSpools(request);
      if (request.idempotencyKey) {
        try { await finishIdempotent(ctx.store, request, reply, payload); } catch (err) { request.log.error({ err }, 'storing the idempotent response failed'); }
      }
    })().then(() => done(null, payload), done);
  });

  // A request that fails before onSend (connection reset) must not keep its key locked.
  app.addHook('onResponse', (request, _reply, done) => {
    if (!hasSpools(request) && !request.idempotencyKey) { done(); return; }
    Promise.all([removeSpools(request), endIdempotent(ctx.store, request)]).then(() => done(), done);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Kerf manufacturing API', version: API_VERSION, description: 'Sheet-metal and tube-laser parts from STEP files: analysis, DFM, quotes.' },
      servers: [{ url: baseUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key' } } },
      security: [{ bearer: [] }],
    },
    // POST /v1/quotes also takes a multipart file form; route schemas describe one body type only.
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> } }).openapiObject;
      const content = doc.paths?.['/v1/quotes']?.post?.requestBody?.content;
      if (content) content['multipart/form-data'] = { schema: FILE_QUOTE_FORM };
      applySecurity(doc, baseUrl);
      describeBodies(doc);
      return doc as never;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs', staticCSP: true });
  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  await errorDocRoutes(app);

  await app.register(async (v1) => {
    await catalogRoutes(v1, ctx);
    await designRoutes(v1, ctx);
    await dfmRoutes(v1, ctx);
    await quoteRoutes(v1, ctx);
    await reviewLinkRoutes(v1, ctx);
    await webhookEndpointRoutes(v1, ctx);
    await downloadRoutes(v1, ctx);
    await reviewPageRoutes(v1, ctx);
    await healthRoutes(v1, ctx);
    await accountRoutes(v1, ctx);
    await cartRoutes(v1, ctx);
    await orderRoutes(v1, ctx);
    await adminRoutes(v1, ctx);
    await dropshipRoutes(v1, ctx);
    await adminDropshipRoutes(v1, ctx);
  });
};

// the `request` field's fields, named from its schema so the form's description cannot drift from it
const fileQuoteRequired: readonly string[] = schemas.FileQuoteRequest.required ?? [];
const fileQuoteFields = Object.keys(schemas.FileQuoteRequest.properties).map((k) => (fileQuoteRequired.includes(k) ? k : `${k}?`)).join(', ');
const FILE_QUOTE_FORM = {
  type: 'object',
  required: ['file', 'request'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'STEP/STP file' },
    request: { type: 'string', description: `JSON-encoded request: {${fileQuoteFields}}` },
  },
};

const OPERATION_IDS: Record<string, string> = {
  'GET /v1/materials': 'listMaterials',
  'GET /v1/tube-profiles': 'listTubeProfiles',
  'GET /v1/finishes': 'listFinishes',
  'GET /v1/powder-coat-colors': 'listPowderCoatColors',
  'GET /v1/hardware/taps': 'listTaps',
  'GET /v1/hardware/studs': 'listStuds',
  'GET /v1/hardware/nuts': 'listNuts',
  'GET /v1/hardware/standoffs': 'listStandoffs',
  'GET /v1/hardware/:kind/:item_id/model': 'getHardwareModel',
  'GET /v1/press-brake/brakes': 'listPressBrakes',
  'GET /v1/press-brake/punches': 'listPressBrakePunches',
  'GET /v1/press-brake/dies': 'listPressBrakeDies',
  'POST /v1/analyze': 'analyzeDesign',
  'GET /v1/designs/:design_id': 'getDesign',
  'GET /v1/designs/:design_id/model': 'getDesignModel',
  'GET /v1/designs/:design_id/image': 'getDesignImage',
  'GET /v1/designs/:design_id/parts/:part_id/model': 'getPartModel',
  'GET /v1/designs/:design_id/parts/:part_id/step': 'getPartStep',
  'GET /v1/designs/:design_id/parts/:part_id/image': 'getPartImage',
  'POST /v1/dfm': 'createDfmReport',
  'GET /v1/dfm/:dfm_id': 'getDfmReport',
  'GET /v1/dfm/:dfm_id/parts/:part_id/file': 'getProductionFile',
  'GET /v1/dfm/:dfm_id/parts/:part_id/image': 'getDfmPartImage',
  'GET /v1/dfm/:dfm_id/parts/:part_id/bend-steps/:step/image': 'getDfmBendStepImage',
  'GET /v1/dfm/:dfm_id/nest': 'getDfmNest',
  'POST /v1/quotes': 'createQuote',
  'GET /v1/quotes/:quote_id': 'getQuote',
  'POST /v1/review-links': 'createReviewLink',
  'GET /v1/review-links/:review_link_id': 'getReviewLink',
  'GET /v1/downloads/:token': 'download',
  'POST /review/:review_link_id': 'saveReviewConfiguration',
  'GET /v1/health': 'getHealth',
  'GET /v1/webhook-endpoints': 'listWebhookEndpoints',
  'POST /v1/webhook-endpoints': 'createWebhookEndpoint',
  'GET /v1/webhook-endpoints/:endpoint_id': 'getWebhookEndpoint',
  'DELETE /v1/webhook-endpoints/:endpoint_id': 'deleteWebhookEndpoint',
  'GET /v1/webhook-endpoints/:endpoint_id/deliveries': 'listWebhookDeliveries',
  'POST /v1/webhook-endpoints/:endpoint_id/roll-secret': 'rollWebhookSecret',
  'POST /v1/webhook-endpoints/:endpoint_id/deliveries/:delivery_id/redeliver': 'redeliverWebhookDelivery',
  'GET /v1/account': 'getAccount',
  'POST /v1/carts': 'createCart',
  'GET /v1/carts/:cart_id': 'getCart',
  'PATCH /v1/carts/:cart_id': 'updateCart',
  'POST /v1/carts/:cart_id/pay': 'payCart',
  'GET /v1/orders': 'listOrders',
  'GET /v1/orders/:order_id': 'getOrder',
  'GET /v1/orders/:order_id/production-files': 'listOrderProductionFiles',
  'GET /v1/admin/orders/:order_id': 'adminGetOrder',
  'POST /v1/admin/orders/:order_id/status': 'adminUpdateOrderStatus',
};

function isPublicUrl(url: string): boolean {
  return url.startsWith(ERROR_DOCS_PATH) || url.startsWith('/v1/docs') || url.startsWith('/v1/openapi.json') || url.startsWith('/v1/downloads/') || url.startsWith('/v1/health');
}
