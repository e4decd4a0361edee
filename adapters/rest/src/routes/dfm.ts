import type { FastifyInstance } from 'fastify';
import { createDfmReport, getBendStepImageUrl, getDfmNest, getDfmPartImageUrl, getDfmReport, getProductionFileUrl, objects, schemas, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { whileClientWaits } from '../client-gone.ts';
import { errorResponses, pathAndQuery, redirectResponse } from '../openapi.ts';

const dfmReportSchema = objects.DfmReportView;
import { inputOf } from './designs.ts';

export async function dfmRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/dfm', {
    config: { accepts: ['json'], idempotent: true },
    schema: {
      tags: ['dfm'], summary: 'Create a DFM report',
      description: '201 for ready, requires_input and blocked alike: those are outcomes, not errors. Production files are generated in the background (`production_files.status`).',
      body: schemas.DfmRequest,
      response: { 201: dfmReportSchema, 200: dfmReportSchema, ...errorResponses(409, 415, 422) },
    },
  }, async (request, reply) => reply.code(201).send(await createDfmReport(ctx, callerOf(request), request.body as schemas.DfmRequest)));

  app.get('/v1/dfm/:dfm_id', {
    schema: { tags: ['dfm'], summary: 'Get a DFM report', params: schemas.DfmInput, response: { 200: dfmReportSchema, ...errorResponses() } },
  }, async (request) => getDfmReport(ctx, callerOf(request), request.params as schemas.DfmInput));

  app.get('/v1/dfm/:dfm_id/parts/:part_id/file', {
    schema: {
      tags: ['dfm'], summary: 'Download a production file (307)', ...pathAndQuery(schemas.ProductionFileInput, ['dfm_id', 'part_id']),
      response: { 307: redirectResponse, ...errorResponses() },
    },
  }, async (request, reply) => reply.redirect(await getProductionFileUrl(whileClientWaits(ctx, request, reply), callerOf(request), inputOf(request)), 307));

  app.get('/v1/dfm/:dfm_id/parts/:part_id/image', {
    schema: {
      tags: ['dfm'], summary: 'Part image of a DFM report (307)', ...pathAndQuery(schemas.DfmPartImageInput, ['dfm_id', 'part_id']),
      response: { 307: redirectResponse, ...errorResponses(422) },
    },
  }, async (request, reply) => reply.redirect(await getDfmPartImageUrl(whileClientWaits(ctx, request, reply), callerOf(request), inputOf(request)), 307));

  app.get('/v1/dfm/:dfm_id/parts/:part_id/bend-steps/:step/image', {
    schema: {
      tags: ['dfm'], summary: 'Picture of one step of a part\'s press-brake bend sequence (307 to an SVG)', params: schemas.DfmBendStepImageInput,
      response: { 307: redirectResponse, ...errorResponses() },
    },
  }, async (request, reply) => reply.redirect(await getBendStepImageUrl(whileClientWaits(ctx, request, reply), callerOf(request), inputOf(request)), 307));

  app.get('/v1/dfm/:dfm_id/nest', {
    schema: {
      tags: ['dfm'], summary: 'The sheet nest of a DFM report\'s design at a quantity: per material the utilisation, and every stock sheet as DXF and SVG with signed download links',
      description: 'The nest a quote of the report\'s design and configuration at `quantity` is priced from (docs/nesting.md). The report itself is unchanged.',
      ...pathAndQuery(schemas.DfmNestInput, ['dfm_id']),
      response: { 200: objects.DfmNest, ...errorResponses(422) },
    },
  }, async (request, reply) => getDfmNest(whileClientWaits(ctx, request, reply), callerOf(request), inputOf(request)));
}
