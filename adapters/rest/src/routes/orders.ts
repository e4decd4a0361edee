import type { FastifyInstance } from 'fastify';
import { getOrder, listOrders, schemas, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses, listSchema, orderSchema } from '../schemas.ts';

export async function orderRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/orders', {
    schema: {
      tags: ['orders'], summary: 'List orders, newest first',
      querystring: schemas.ListOrdersInput, response: { 200: listSchema(orderSchema), ...errorResponses(403) },
    },
  }, async (request) => listOrders(ctx, callerOf(request), request.query as schemas.ListOrdersInput));

  app.get('/v1/orders/:order_id', {
    schema: { tags: ['orders'], summary: 'Get an order with its status, tracking, line items and events', params: schemas.OrderInput, response: { 200: orderSchema, ...errorResponses(403) } },
  }, async (request) => getOrder(ctx, callerOf(request), request.params as schemas.OrderInput));
}
