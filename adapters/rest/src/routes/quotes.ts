import type { FastifyInstance } from 'fastify';
import type { UseCaseContext } from '@kerf/usecases/context.ts';
import { createFileQuote, createQuote, getQuote, waitForQuote, type FileQuoteRequest, type QuoteRequest } from '@kerf/usecases/quotes.ts';
import { ApiError, invalid, malformed } from '@kerf/usecases/errors.ts';
import { callerOf } from '../auth.ts';
import { isMultipartBody } from '../multipart.ts';
import { toApiError } from '../envelope.ts';
import { bodyAjv } from '../validation.ts';
import { errorResponses, fileQuoteRequestSchema, quoteRequestSchema, quoteSchema } from '../schemas.ts';
import { preferWait } from './designs.ts';

const validateFileRequest = bodyAjv.compile(fileQuoteRequestSchema);

export async function quoteRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/quotes', {
    config: { accepts: ['json', 'multipart'], idempotent: true },
    schema: {
      tags: ['quotes'], summary: 'Create a quote',
      description: 'JSON quote request, or multipart/form-data with `file` (STEP) and `request` (JSON string: quantity, configuration, quantity_options, ship_to). 201 created, 200 idempotent replay, 202 while a file quote is processing. A multi-part file gives requires_input with the discovered design id.',
      body: quoteRequestSchema,
      response: { 200: quoteSchema, 201: quoteSchema, 202: quoteSchema, ...errorResponses(409, 413, 415, 422) },
    },
  }, async (request, reply) => {
    const { accountId } = callerOf(request);
    const body = request.body;
    if (!isMultipartBody(body)) {
      return reply.code(201).send(await createQuote(ctx, accountId, body as QuoteRequest));
    }
    const file = body.files.file;
    if (!file) throw invalid('parameter_missing', 'Missing required file part `file`.', 'file');
    const raw = body.fields.request;
    if (raw === undefined) throw invalid('parameter_missing', 'Missing required field `request` (a JSON-encoded quote request).', 'request');
    let parsed: unknown;
    try { parsed = JSON.parse(raw); } catch (err) { throw malformed('invalid_json', `Field \`request\` is not valid JSON: ${(err as Error).message}`, 'request'); }
    if (!validateFileRequest(parsed)) {
      const e = toApiError(Object.assign(new Error('invalid'), { validation: validateFileRequest.errors, validationContext: 'body' }));
      throw new ApiError(e.status, e.type, e.code, e.message.replace(/'([^']+)'/, "'request.$1'"), { param: e.param ? `request.${e.param}` : 'request', details: e.details });
    }
    let quote = await createFileQuote(ctx, accountId, { fileName: file.filename, bytes: file.bytes }, parsed as FileQuoteRequest);
    const wait = preferWait(request.headers.prefer);
    if (wait !== null && wait > 0) {
      reply.header('preference-applied', `wait=${wait}`);
      quote = await waitForQuote(ctx, accountId, quote.id, wait);
    }
    reply.header('location', quote.status_url as string);
    return reply.code(quote.status === 'processing' ? 202 : 201).send(quote);
  });

  app.get('/v1/quotes/:quote_id', {
    schema: {
      tags: ['quotes'], summary: 'Get a quote',
      params: { type: 'object', properties: { quote_id: { type: 'string', maxLength: 100 } }, required: ['quote_id'] },
      response: { 200: quoteSchema, ...errorResponses() },
    },
  }, async (request) => getQuote(ctx, callerOf(request).accountId, (request.params as { quote_id: string }).quote_id));
}
