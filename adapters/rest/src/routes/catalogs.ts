import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { getHardwareModelUrl, listCatalog, listPressBrake, objects, schemas, type CatalogName, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses, redirectResponse } from '../openapi.ts';

const CATALOGS: Array<{ path: string; catalog: CatalogName; summary: string }> = [
  { path: '/v1/materials', catalog: 'materials', summary: 'List sheet materials' },
  { path: '/v1/tube-profiles', catalog: 'tube_profiles', summary: 'List tube profiles' },
  { path: '/v1/finishes', catalog: 'finishes', summary: 'List finishes' },
  { path: '/v1/powder-coat-colors', catalog: 'powder_coat_colors', summary: 'List powder-coat colors (with viewer hints)' },
  { path: '/v1/hardware/taps', catalog: 'taps', summary: 'List tap sizes' },
  { path: '/v1/hardware/studs', catalog: 'studs', summary: 'List installed studs' },
  { path: '/v1/hardware/nuts', catalog: 'nuts', summary: 'List installed nuts' },
  { path: '/v1/hardware/standoffs', catalog: 'standoffs', summary: 'List press-fit standoffs' },
];

// `process` filters finishes only, `thickness_mm` and `material` materials only; the other lists
// refuse them as unknown parameters.
const finishesQuery = Type.Omit(schemas.ListCatalogInput, ['catalog', 'thickness_mm', 'material']);
const materialsQuery = Type.Omit(schemas.ListCatalogInput, ['catalog', 'process']);
const listQuery = Type.Omit(schemas.ListCatalogInput, ['catalog', 'process', 'thickness_mm', 'material']);
const queryOf = (catalog: CatalogName) => (catalog === 'finishes' ? finishesQuery : catalog === 'materials' ? materialsQuery : listQuery);

export async function catalogRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  for (const c of CATALOGS) {
    app.get(c.path, {
      schema: { tags: ['catalogs'], summary: c.summary, querystring: queryOf(c.catalog), response: { 200: objects.listOf(objects.CATALOG_ENTRIES[c.catalog]), ...errorResponses() } },
    }, async (request) => listCatalog(ctx, callerOf(request), { ...(request.query as object), catalog: c.catalog }));
  }

  const pressBrakeQuery = Type.Omit(schemas.ListPressBrakeInput, ['list']);
  for (const list of schemas.PRESS_BRAKE_LISTS) {
    app.get(`/v1/press-brake/${list}`, {
      schema: { tags: ['catalogs'], summary: `List the press-brake ${list === 'brakes' ? 'brakes' : list === 'punches' ? 'punches' : 'V-dies'} (tooling of the bend simulation)`, querystring: pressBrakeQuery, response: { 200: objects.listOf(objects.PRESS_BRAKE_ENTRIES[list]), ...errorResponses() } },
    }, async (request) => listPressBrake(ctx, callerOf(request), { ...(request.query as object), list }));
  }

  app.get('/v1/hardware/:kind/:item_id/model', {
    schema: {
      tags: ['catalogs'], summary: 'Download the 3D model of a hardware item (307)',
      params: schemas.HardwareModelInput,
      response: { 307: redirectResponse, ...errorResponses() },
    },
  }, async (request, reply) => reply.redirect(await getHardwareModelUrl(ctx, callerOf(request), request.params as schemas.HardwareModelInput), 307));
}
