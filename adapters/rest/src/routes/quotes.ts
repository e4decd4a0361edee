import type { FastifyInstance } from 'fastify';
import { createFileQuote, createQuote, getQuote, waitForQuote, objects, schemas, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { HttpError } from '../http-errors.ts';
import { isMultipartBody } from '../multipart.ts';
import { errorResponses } from '../openapi.ts';
import { preferWait } from './designs.ts';

export async function quoteRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/quotes', {
    config: { accepts: ['json', 'multipart'], idempotent: true },
    schema: {
      tags: ['quotes'], summary: 'Create a quote',
      description: 'JSON quote request, or multipart/form-data with `file` (STEP) and `request` (JSON string: quantity, configuration, quantity_options, ship_to). 201 created, 200 idempotent replay, 202 while a file quote is processing. A multi-part file gives requires_input with the discovered design id.',
      body: schemas.QuoteRequest,
      response: { 200: objects.Quote, 201: objects.Quote, 202: objects.Quote, ...errorResponses(409, 413, 415, 422) },
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const body = request.body;
    if (!isMultipartBody(body)) {
      return reply.code(201).send(await createQuote(ctx, caller, body as schemas.QuoteRequest));
    }
    const file = body.files.file;
    if (!file) throw new HttpError(422, 'invalid_request_error', 'parameter_missing', 'Missing required file part `file`.', { param: 'file' });
    const raw = body.fields.request;
    if (raw === undefined) throw new HttpError(422, 'invalid_request_error', 'parameter_missing', 'Missing required field `request` (a JSON-encoded quote request).', { param: 'request' });
    let parsed: unknown;
    try { parsed = JSON.parse(raw); } catch (err) { throw new HttpError(400, 'invalid_request_error', 'invalid_json', `Field \`request\` is not valid JSON: ${(err as Error).message}`, { param: 'request' }); }
    let quote = await createFileQuote(ctx, caller, { file_name: file.filename, bytes: file.bytes, request: parsed });
    const wait = preferWait(request.headers.prefer);
    if (wait !== null && wait > 0) {
      reply.header('preference-applied', `wait=${wait}`);
      quote = await waitForQuote(ctx, caller, { quote_id: quote.id, wait_seconds: wait });
    }
    reply.header('location', quote.status_url as string);
    return reply.code(quote.status === 'processing' ? 202 : 201).send(quote);
  });

  app.get('/v1/quotes/:quote_id', {
    schema: { tags: ['quotes'], summary: 'Get a quote', params: schemas.QuoteInput, response: { 200: objects.Quote, ...errorResponses() } },
  }, async (request) => getQuote(ctx, callerOf(request), request.params as schemas.QuoteInput));
}
