import type { FastifyInstance } from 'fastify';
import type { UseCaseContext } from '@kerf/usecases/context.ts';
import { createDfmReport, dfmImageUrl, getDfmReport, productionFileUrl, type DfmRequest } from '@kerf/usecases/dfm.ts';
import { designFileNames, designFileUrl, type ImageFormat, type ImageView } from '@kerf/usecases/files.ts';
import { PRODUCTION_FILE_KINDS, type ProductionFileKind } from '@kerf/usecases/engine-api.ts';
import { callerOf } from '../auth.ts';
import { dfmReportSchema, dfmRequestSchema, errorResponses, imageQuery, redirectResponse } from '../schemas.ts';

const dfmParams = { type: 'object', properties: { dfm_id: { type: 'string', maxLength: 100 } }, required: ['dfm_id'] };
const dfmPartParams = { type: 'object', properties: { dfm_id: { type: 'string', maxLength: 100 }, part_id: { type: 'string', maxLength: 100 } }, required: ['dfm_id', 'part_id'] };

export async function dfmRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/dfm', {
    config: { accepts: ['json'], idempotent: true },
    schema: {
      tags: ['dfm'], summary: 'Create a DFM report',
      description: '201 for ready, requires_input and blocked alike: those are outcomes, not errors. Production files are generated in the background (`production_files.status`).',
      body: dfmRequestSchema,
      response: { 201: dfmReportSchema, 200: dfmReportSchema, ...errorResponses(409, 415, 422) },
    },
  }, async (request, reply) => {
    const report = await createDfmReport(ctx, callerOf(request).accountId, request.body as DfmRequest);
    return reply.code(201).send(report);
  });

  app.get('/v1/dfm/:dfm_id', {
    schema: { tags: ['dfm'], summary: 'Get a DFM report', params: dfmParams, response: { 200: dfmReportSchema, ...errorResponses() } },
  }, async (request) => getDfmReport(ctx, callerOf(request).accountId, (request.params as { dfm_id: string }).dfm_id));

  app.get('/v1/dfm/:dfm_id/parts/:part_id/file', {
    schema: {
      tags: ['dfm'], summary: 'Download a production file (307)', params: dfmPartParams,
      querystring: { type: 'object', properties: { kind: { type: 'string', enum: [...PRODUCTION_FILE_KINDS] } }, required: ['kind'], additionalProperties: false },
      response: { 307: redirectResponse, ...errorResponses() },
    },
  }, async (request, reply) => {
    const { dfm_id, part_id } = request.params as { dfm_id: string; part_id: string };
    const { kind } = request.query as { kind: ProductionFileKind };
    return reply.redirect(await productionFileUrl(ctx, callerOf(request).accountId, dfm_id, part_id, kind), 307);
  });

  app.get('/v1/dfm/:dfm_id/parts/:part_id/image', {
    schema: {
      tags: ['dfm'], summary: 'Part image of a DFM report (307)', params: dfmPartParams,
      querystring: imageQuery,
      response: { 307: redirectResponse, ...errorResponses(422) },
    },
  }, async (request, reply) => {
    const { dfm_id, part_id } = request.params as { dfm_id: string; part_id: string };
    const q = request.query as { view: ImageView; format: ImageFormat; width: number };
    const { accountId } = callerOf(request);
    const annotated = await dfmImageUrl(ctx, accountId, dfm_id, part_id, q.format);
    if (annotated) return reply.redirect(annotated, 307);
    const report = await getDfmReport(ctx, accountId, dfm_id);
    return reply.redirect(await designFileUrl(ctx, accountId, report.design_id, designFileNames.partImage(part_id, q.view, q.format, q.width), part_id), 307);
  });
}
