// Operator actions of the dropship API (docs/api.md "Operator actions"): account approval, item
// approval with a locked price, factory release, fulfilment. An operator key only (the use cases check).
import type { FastifyInstance } from 'fastify';
import {
  adminApproveDropshipItem, adminCreateDropshipItem, adminGetDropshipOrder, adminReleaseDropshipOrder, adminSetDropshipStatus,
  adminUpdateDropshipOrder, objects, schemas, type UseCaseContext,
} from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses } from '../openapi.ts';

const { withAccount, DropshipItem: dropshipItemSchema, DropshipOrder: dropshipOrderSchema, DropshipAccount: accountSchema } = objects;
const operatorErrors = errorResponses(403, 409, 415);
type P<T> = { params: T; body: Record<string, unknown> };

export async function adminDropshipRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/admin/dropship/accounts/:account_id/status', {
    config: { accepts: ['json'] },
    schema: { tags: ['admin'], summary: 'Operator: set an account\'s dropship status (requested, approved, suspended, denied) and contact phone', params: schemas.AdminDropshipAccountInput, body: schemas.AdminDropshipAccountBody, response: { 200: accountSchema, ...operatorErrors } },
  }, async (request) => {
    const { params, body } = request as unknown as P<{ account_id: string }>;
    return adminSetDropshipStatus(ctx, callerOf(request), { ...body, ...params } as schemas.AdminDropshipAccountUpdate);
  });

  app.post('/v1/admin/dropship/items', {
    config: { accepts: ['json'] },
    schema: { tags: ['admin'], summary: 'Operator: a dropship item from a line of an existing order (the sample order), requested', body: schemas.AdminDropshipItemCreate, response: { 201: withAccount(dropshipItemSchema), ...operatorErrors } },
  }, async (request, reply) => reply.code(201).send(await adminCreateDropshipItem(ctx, callerOf(request), request.body as schemas.AdminDropshipItemCreate)));

  app.post('/v1/admin/dropship/items/:item_id/approve', {
    config: { accepts: ['json'] },
    schema: { tags: ['admin'], summary: 'Operator: approve an item at a locked unit price (committed_quantity: a prepaid contract item)', params: schemas.AdminDropshipItemInput, body: schemas.AdminDropshipItemApproveBody, response: { 200: withAccount(dropshipItemSchema), ...operatorErrors } },
  }, async (request) => {
    const { params, body } = request as unknown as P<{ item_id: string }>;
    return adminApproveDropshipItem(ctx, callerOf(request), { ...body, ...params } as schemas.AdminDropshipItemApprove);
  });

  app.get('/v1/admin/dropship/orders/:order_id', {
    schema: { tags: ['admin'], summary: 'Operator: read any account\'s dropship order', params: schemas.DropshipOrderInput, response: { 200: withAccount(dropshipOrderSchema), ...errorResponses(403) } },
  }, async (request) => adminGetDropshipOrder(ctx, callerOf(request), request.params as schemas.DropshipOrderInput));

  app.post('/v1/admin/dropship/orders/:order_id/release', {
    schema: { tags: ['admin'], summary: 'Operator: factory release of a held (contract) order; it moves to in_production', params: schemas.DropshipOrderInput, response: { 200: withAccount(dropshipOrderSchema), ...operatorErrors } },
  }, async (request) => adminReleaseDropshipOrder(ctx, callerOf(request), request.params as schemas.DropshipOrderInput));

  app.post('/v1/admin/dropship/orders/:order_id/status', {
    config: { accepts: ['json'] },
    schema: {
      tags: ['admin'], summary: 'Operator: move a dropship order on',
      description: '`status`: in_review, in_production, shipped (with `tracking` {carrier, number, url?} and `shipping_cost_cents`, charged to the order\'s card; a failed charge emits order.payment_failed and the order still ships), delivered, cancelled (parts refunded).',
      params: schemas.DropshipOrderInput, body: schemas.AdminDropshipOrderBody, response: { 200: withAccount(dropshipOrderSchema), ...operatorErrors },
    },
  }, async (request) => {
    const { params, body } = request as unknown as P<{ order_id: string }>;
    return adminUpdateDropshipOrder(ctx, callerOf(request), { ...body, ...params } as schemas.AdminDropshipOrderUpdate);
  });
}
