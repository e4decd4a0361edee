import type { FastifyInstance } from 'fastify';
import { getOrder, listOrderProductionFiles, listOrders, objects, schemas, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses } from '../openapi.ts';

export async function orderRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/orders', {
    schema: {
      tags: ['orders'], summary: 'List orders, newest first',
      querystring: schemas.ListOrdersInput, response: { 200: objects.listOf(objects.Order), ...errorResponses(403) },
    },
  }, async (request) => listOrders(ctx, callerOf(request), request.query as schemas.ListOrdersInput));

  app.get('/v1/orders/:order_id', {
    schema: { tags: ['orders'], summary: 'Get an order with its status, tracking, line items and events', params: schemas.OrderInput, response: { 200: objects.Order, ...errorResponses(403) } },
  }, async (request) => getOrder(ctx, callerOf(request), request.params as schemas.OrderInput));

  app.get('/v1/orders/:order_id/production-files', {
    schema: {
      tags: ['orders'], summary: 'List the order\'s production files for the shop: each stock sheet of its nests as DXF and SVG, with signed download links',
      params: schemas.OrderInput, response: { 200: objects.listOf(objects.OrderProductionFile), ...errorResponses(403) },
    },
  }, async (request) => listOrderProductionFiles(ctx, callerOf(request), request.params as schemas.OrderInput));
}
