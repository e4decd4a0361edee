import type { FastifyInstance } from 'fastify';
import type { UseCaseContext } from '@kerf/usecases/context.ts';
import { getDesign, submitDesign, waitForDesign, MAX_WAIT_SECONDS } from '@kerf/usecases/designs.ts';
import { designFileNames, designFileUrl, type ImageFormat, type ImageView, type PartModelView, type PartStepView } from '@kerf/usecases/files.ts';
import { invalid } from '@kerf/usecases/errors.ts';
import { callerOf } from '../auth.ts';
import { isMultipartBody } from '../multipart.ts';
import { MULTIPART_MARK } from '../validation.ts';
import { designSchema, errorResponses, imageQuery, redirectResponse } from '../schemas.ts';

const designParams = { type: 'object', properties: { design_id: { type: 'string', maxLength: 100 } }, required: ['design_id'] };
const partParams = { type: 'object', properties: { design_id: { type: 'string', maxLength: 100 }, part_id: { type: 'string', maxLength: 100 } }, required: ['design_id', 'part_id'] };

/** `Prefer: wait=N` (RFC 7240), seconds; null when absent. */
export function preferWait(header: string | string[] | undefined): number | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return null;
  const m = /(?:^|[,;\s])wait\s*=\s*"?(\d{1,5})"?/i.exec(text);
  return m ? Math.min(Number(m[1]), MAX_WAIT_SECONDS) : null;
}

export async function designRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/analyze', {
    config: { accepts: ['multipart'], idempotent: true },
    schema: {
      tags: ['designs'], summary: 'Upload a STEP file for analysis',
      description: 'multipart/form-data with a required `file` part. 202 with the queued design; with `Prefer: wait=N`, 200 with the finished design when analysis completes within N seconds.',
      consumes: ['multipart/form-data'],
      headers: { type: 'object', properties: { 'idempotency-key': { type: 'string' }, prefer: { type: 'string' } } },
      body: { [MULTIPART_MARK]: true, type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
      response: { 200: designSchema, 202: designSchema, ...errorResponses(409, 413, 415, 422) },
    },
  }, async (request, reply) => {
    const body = request.body;
    const file = isMultipartBody(body) ? body.files.file : undefined;
    if (!isMultipartBody(body) || !file) throw invalid('parameter_missing', 'Missing required file part `file`.', 'file');
    const { accountId } = callerOf(request);
    let design = await submitDesign(ctx, { accountId, fileName: file.filename, bytes: file.bytes });
    const wait = preferWait(request.headers.prefer);
    if (wait !== null && wait > 0) {
      reply.header('preference-applied', `wait=${wait}`);
      design = await waitForDesign(ctx, accountId, design.id, wait);
    }
    const done = design.status === 'ready' || design.status === 'failed';
    reply.header('location', design.status_url!);
    return reply.code(done ? 200 : 202).send(design);
  });

  app.get('/v1/designs/:design_id', {
    schema: { tags: ['designs'], summary: 'Get a design', params: designParams, response: { 200: designSchema, ...errorResponses() } },
  }, async (request) => {
    const { design_id } = request.params as { design_id: string };
    return getDesign(ctx, callerOf(request).accountId, design_id);
  });

  app.get('/v1/designs/:design_id/model', {
    schema: { tags: ['designs'], summary: 'Download the design model (GLB, 307)', params: designParams, response: { 307: redirectResponse, ...errorResponses(422) } },
  }, async (request, reply) => {
    const { design_id } = request.params as { design_id: string };
    return reply.redirect(await designFileUrl(ctx, callerOf(request).accountId, design_id, designFileNames.model()), 307);
  });

  app.get('/v1/designs/:design_id/image', {
    schema: { tags: ['designs'], summary: 'Design image (307)', params: designParams, querystring: imageQuery, response: { 307: redirectResponse, ...errorResponses(422) } },
  }, async (request, reply) => {
    const { design_id } = request.params as { design_id: string };
    const q = request.query as { view: ImageView; format: ImageFormat; width: number };
    return reply.redirect(await designFileUrl(ctx, callerOf(request).accountId, design_id, designFileNames.image(q.view, q.format, q.width)), 307);
  });

  app.get('/v1/designs/:design_id/parts/:part_id/model', {
    schema: {
      tags: ['designs'], summary: 'Download a part model (GLB, 307)', params: partParams,
      querystring: { type: 'object', properties: { view: { type: 'string', enum: ['formed', 'flat'], default: 'formed' } }, additionalProperties: false },
      response: { 307: redirectResponse, ...errorResponses(422) },
    },
  }, async (request, reply) => {
    const { design_id, part_id } = request.params as { design_id: string; part_id: string };
    const { view } = request.query as { view: PartModelView };
    return reply.redirect(await designFileUrl(ctx, callerOf(request).accountId, design_id, designFileNames.partModel(part_id, view), part_id), 307);
  });

  app.get('/v1/designs/:design_id/parts/:part_id/step', {
    schema: {
      tags: ['designs'], summary: 'Download a part STEP file (307)', params: partParams,
      querystring: { type: 'object', properties: { view: { type: 'string', enum: ['source', 'normalized', 'flat'], default: 'normalized' } }, additionalProperties: false },
      response: { 307: redirectResponse, ...errorResponses(422) },
    },
  }, async (request, reply) => {
    const { design_id, part_id } = request.params as { design_id: string; part_id: string };
    const { view } = request.query as { view: PartStepView };
    return reply.redirect(await designFileUrl(ctx, callerOf(request).accountId, design_id, designFileNames.partStep(part_id, view), part_id), 307);
  });

  app.get('/v1/designs/:design_id/parts/:part_id/image', {
    schema: { tags: ['designs'], summary: 'Part image (307)', params: partParams, querystring: imageQuery, response: { 307: redirectResponse, ...errorResponses(422) } },
  }, async (request, reply) => {
    const { design_id, part_id } = request.params as { design_id: string; part_id: string };
    const q = request.query as { view: ImageView; format: ImageFormat; width: number };
    return reply.redirect(await designFileUrl(ctx, callerOf(request).accountId, design_id, designFileNames.partImage(part_id, q.view, q.format, q.width), part_id), 307);
  });
}
