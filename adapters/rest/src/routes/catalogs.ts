import type { FastifyInstance } from 'fastify';
import type { UseCaseContext } from '@kerf/usecases/context.ts';
import type { CatalogKind } from '@kerf/usecases/engine-api.ts';
import { hardwareModelFile, listCatalog, type CatalogQuery } from '@kerf/usecases/catalogs.ts';
import { catalogEntrySchema, errorResponses, listQuery, listSchema, redirectResponse } from '../schemas.ts';

const CATALOGS: Array<{ path: string; kind: CatalogKind; summary: string }> = [
  { path: '/v1/materials', kind: 'materials', summary: 'List sheet materials' },
  { path: '/v1/tube-profiles', kind: 'tube_profiles', summary: 'List tube profiles' },
  { path: '/v1/finishes', kind: 'finishes', summary: 'List finishes' },
  { path: '/v1/powder-coat-colors', kind: 'powder_coat_colors', summary: 'List powder-coat colors (with viewer hints)' },
  { path: '/v1/hardware/taps', kind: 'taps', summary: 'List tap sizes' },
  { path: '/v1/hardware/studs', kind: 'studs', summary: 'List installed studs' },
  { path: '/v1/hardware/nuts', kind: 'nuts', summary: 'List installed nuts' },
  { path: '/v1/hardware/standoffs', kind: 'standoffs', summary: 'List press-fit standoffs' },
];

export async function catalogRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  for (const c of CATALOGS) {
    const querystring = c.kind === 'finishes'
      ? { ...listQuery, properties: { ...(listQuery.properties as object), process: { type: 'string', enum: ['sheet_metal', 'tube_laser'] } } }
      : listQuery;
    app.get(c.path, {
      schema: { tags: ['catalogs'], summary: c.summary, querystring, response: { 200: listSchema(catalogEntrySchema), ...errorResponses() } },
    }, async (request) => listCatalog(ctx, c.kind, request.query as CatalogQuery));
  }

  app.get('/v1/hardware/:kind/:item_id/model', {
    schema: {
      tags: ['catalogs'], summary: 'Download the 3D model of a hardware item (307)',
      params: { type: 'object', properties: { kind: { type: 'string', enum: ['studs', 'nuts', 'standoffs'] }, item_id: { type: 'string', maxLength: 100 } }, required: ['kind', 'item_id'] },
      response: { 307: redirectResponse, ...errorResponses() },
    },
  }, async (request, reply) => {
    const { kind, item_id } = request.params as { kind: 'studs' | 'nuts' | 'standoffs'; item_id: string };
    return reply.redirect(await hardwareModelFile(ctx, kind, item_id), 307);
  });
}
