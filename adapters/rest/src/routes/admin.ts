// Operator actions (docs/api.md "Operator actions"): an operator key only (the use cases check it).
import type { FastifyInstance } from 'fastify';
import { adminGetOrder, adminUpdateOrder, objects, schemas, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses } from '../openapi.ts';

const adminOrderSchema = objects.withAccount(objects.Order);

export async function adminRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/admin/orders/:order_id', {
    schema: { tags: ['admin'], summary: 'Operator: read any account\'s order', params: schemas.OrderInput, response: { 200: adminOrderSchema, ...errorResponses(403) } },
  }, async (request) => adminGetOrder(ctx, callerOf(request), request.params as schemas.OrderInput));

  app.post('/v1/admin/orders/:order_id/status', {
    config: { accepts: ['json'], idempotent: true },
    schema: {
      tags: ['admin'], summary: 'Operator: move an order on',
      description: '`status`: in_production, ready_for_pickup, shipped (with `tracking` {carrier, service?, number, url?}), delivered, cancelled or refunded (both refund the payment through the processor). Appends to the order\'s events and emits order.status_changed.',
      params: schemas.OrderInput, body: schemas.AdminOrderBody,
      response: { 200: adminOrderSchema, ...errorResponses(403, 409, 415) },
    },
  }, async (request) => adminUpdateOrder(ctx, callerOf(request), { ...(request.body as schemas.AdminOrderBody), ...(request.params as schemas.OrderInput) }));
}
