import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  analyzeDesign, getDesign, getDesignImageUrl, getDesignModelUrl, getPartImageUrl, getPartModelUrl, getPartStepUrl,
  waitForDesign, objects, schemas, MAX_WAIT_SECONDS, type UseCaseContext,
} from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { whileClientWaits } from '../client-gone.ts';
import { HttpError } from '../http-errors.ts';
import { isMultipartBody } from '../multipart.ts';
import { MULTIPART_MARK } from '../validation.ts';
import { errorResponses, pathAndQuery, redirectResponse } from '../openapi.ts';

const designSchema = objects.DesignView;

/** `Prefer: wait=N` (RFC 7240), seconds; null when absent. */
export function preferWait(header: string | string[] | undefined): number | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return null;
  const m = /(?:^|[,;\s])wait\s*=\s*"?(\d{1,5})"?/i.exec(text);
  return m ? Math.min(Number(m[1]), MAX_WAIT_SECONDS) : null;
}

/** The request headers this API reads, as documented (./idempotency.ts; `Prefer: wait=N`, RFC 7240). */
const IDEMPOTENCY_KEY = { type: 'string', description: 'A unique key per intended write: a retry with the same key answers with what the first request created, never creating twice.' };
const PREFER = { type: 'string', description: `\`wait=N\` (seconds, at most ${MAX_WAIT_SECONDS}): answer once the work is done within N seconds instead of at once.` };

/** Path parameters and query string of a request, as the one input object a use case takes. */
export const inputOf = <T>(request: FastifyRequest): T => ({ ...(request.params as object), ...(request.query as object) }) as T;

export async function designRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/analyze', {
    config: { accepts: ['multipart'], idempotent: true },
    schema: {
      tags: ['designs'], summary: 'Upload a STEP file for analysis',
      description: 'multipart/form-data with a required `file` part. 202 with the queued design; with `Prefer: wait=N`, 200 with the finished design when analysis completes within N seconds.',
      consumes: ['multipart/form-data'],
      headers: { type: 'object', properties: { 'idempotency-key': IDEMPOTENCY_KEY, prefer: PREFER } },
      body: { [MULTIPART_MARK]: true, type: 'object', properties: { file: { type: 'string', format: 'binary', description: 'The STEP file (AP203/AP214/AP242, plain or gzip).' } }, required: ['file'] },
      response: { 200: designSchema, 202: designSchema, ...errorResponses(409, 413, 415, 422) },
    },
  }, async (request, reply) => {
    const body = request.body;
    const file = isMultipartBody(body) ? body.files.file : undefined;
    if (!isMultipartBody(body) || !file) throw new HttpError(422, 'invalid_request_error', 'parameter_missing', 'Missing required file part `file`.', { param: 'file' });
    const caller = callerOf(request);
    let design = await analyzeDesign(ctx, caller, { file_name: file.filename, bytes: file.bytes });
    const wait = preferWait(request.headers.prefer);
    if (wait !== null && wait > 0) {
      reply.header('preference-applied', `wait=${wait}`);
      design = await waitForDesign(ctx, caller, { design_id: design.id, wait_seconds: wait });
    }
    const done = design.status === 'ready' || design.status === 'failed';
    reply.header('location', design.status_url!);
    return reply.code(done ? 200 : 202).send(design);
  });

  app.get('/v1/designs/:design_id', {
    schema: { tags: ['designs'], summary: 'Get a design', params: schemas.DesignInput, response: { 200: designSchema, ...errorResponses() } },
  }, async (request) => getDesign(ctx, callerOf(request), request.params as schemas.DesignInput));

  app.get('/v1/designs/:design_id/model', {
    schema: { tags: ['designs'], summary: 'Download the design model (GLB, 307)', params: schemas.DesignInput, response: { 307: redirectResponse, ...errorResponses(422) } },
  }, async (request, reply) => reply.redirect(await getDesignModelUrl(whileClientWaits(ctx, request, reply), callerOf(request), request.params as schemas.DesignInput), 307));

  app.get('/v1/designs/:design_id/image', {
    schema: { tags: ['designs'], summary: 'Design image (307)', ...pathAndQuery(schemas.DesignImageInput, ['design_id']), response: { 307: redirectResponse, ...errorResponses(422) } },
  }, async (request, reply) => reply.redirect(await getDesignImageUrl(whileClientWaits(ctx, request, reply), callerOf(request), inputOf(request)), 307));

  app.get('/v1/designs/:design_id/parts/:part_id/model', {
    schema: { tags: ['designs'], summary: 'Download a part model (GLB, 307)', ...pathAndQuery(schemas.PartModelInput, ['design_id', 'part_id']), response: { 307: redirectResponse, ...errorResponses(422) } },
  }, async (request, reply) => reply.redirect(await getPartModelUrl(whileClientWaits(ctx, request, reply), callerOf(request), inputOf(request)), 307));

  app.get('/v1/designs/:design_id/parts/:part_id/step', {
    schema: { tags: ['designs'], summary: 'Download a part STEP file (307)', ...pathAndQuery(schemas.PartStepInput, ['design_id', 'part_id']), response: { 307: redirectResponse, ...errorResponses(422) } },
  }, async (request, reply) => reply.redirect(await getPartStepUrl(whileClientWaits(ctx, request, reply), callerOf(request), inputOf(request)), 307));

  app.get('/v1/designs/:design_id/parts/:part_id/image', {
    schema: { tags: ['designs'], summary: 'Part image (307)', ...pathAndQuery(schemas.PartImageInput, ['design_id', 'part_id']), response: { 307: redirectResponse, ...errorResponses(422) } },
  }, async (request, reply) => reply.redirect(await getPartImageUrl(whileClientWaits(ctx, request, reply), callerOf(request), inputOf(request)), 307));
}
