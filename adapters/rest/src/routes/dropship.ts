// The dropship API (README.md "Dropship"; all under /v1/dropship): items, orders (201 new, 200 the
// existing order of a repeated external_ref) and webhook endpoints. Bearer API key or the legacy
// `svc_key` header (./auth.ts).
import type { FastifyInstance } from 'fastify';
import {
  createDropshipEndpoint, createDropshipOrder, deleteDropshipEndpoint, getDropshipOrder, listDropshipEndpoints, listDropshipItems,
  listDropshipOrders, schemas, type UseCaseContext,
} from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses, noContentResponse } from '../schemas.ts';

type S = Record<string, unknown>;
const str: S = { type: 'string' };
const strN: S = { type: ['string', 'null'] };
const int: S = { type: 'integer' };
const intN: S = { type: ['integer', 'null'] };
const obj = (properties: S, required: string[] = Object.keys(properties)): S => ({ type: 'object', properties, required });
const nullable = (schema: S): S => ({ anyOf: [schema, { type: 'null' }] });
const time: S = { type: 'string', format: 'date-time' };

export const dropshipItemSchema = obj({
  id: str, sku: str, name: str, status: { type: 'string', enum: ['requested', 'approved'] }, unit_price_cents: intN,
  kind: { type: 'string', enum: ['part', 'assembly'] },
  part: nullable(obj({ id: str, material: str, material_type: str, thickness: { type: 'number' } })),
  assembly: nullable(obj({ id: str, part_count: int, has_welds: { type: 'boolean' }, file_name: str })),
});

const chargeSchema = obj({
  kind: { type: 'string', enum: ['parts', 'shipping'] }, amount_cents: int, status: str, processor_payment_intent_id: str, created_at: str,
});

export const dropshipOrderSchema = obj({
  id: str, status: { type: 'string', enum: ['paid', 'in_review', 'in_production', 'shipped', 'delivered', 'cancelled'] },
  external_ref: str, sku: str, quantity: int, parts_total_cents: int, retail_unit_price_cents: intN,
  shipping: obj({ status: str, amount_cents: intN }),
  tracking: nullable(obj({ carrier: str, number: str, url: strN })),
  charges: { type: 'array', items: chargeSchema },
  production_hold: { type: 'boolean' },
  created_at: time,
});

const wrappedOrder = obj({ order: dropshipOrderSchema });
const endpointSchema = obj({ id: str, url: str, events: { type: 'array', items: str }, active: { type: 'boolean' }, created_at: time });
const endpointWithSecret = { ...endpointSchema, required: [...(endpointSchema.required as string[]), 'secret'], properties: { ...(endpointSchema.properties as S), secret: str } };

export async function dropshipRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/dropship/items', {
    schema: { tags: ['dropship'], summary: 'The account\'s dropship items, approved and requested', response: { 200: obj({ items: { type: 'array', items: dropshipItemSchema } }), ...errorResponses(403) } },
  }, async (request) => listDropshipItems(ctx, callerOf(request)));

  app.post('/v1/dropship/orders', {
    config: { accepts: ['json'] },
    schema: {
      tags: ['dropship'], summary: 'Order an approved item, shipped to a US address',
      description: 'Idempotent on (account, `external_ref`): a repeat answers 200 with the existing order and charges nothing. Parts (unit_price_cents x quantity) are charged off-session to the card on file at creation; shipping at fulfilment. `retail_unit_price_cents` is stored, never billed. Contract items allocate prepaid units and start on production hold.',
      body: schemas.DropshipOrderCreate,
      response: { 200: wrappedOrder, 201: wrappedOrder, ...errorResponses(402, 403, 409, 415) },
    },
  }, async (request, reply) => {
    const { order, created } = await createDropshipOrder(ctx, callerOf(request), request.body as schemas.DropshipOrderCreate);
    return reply.code(created ? 201 : 200).send({ order });
  });

  app.get('/v1/dropship/orders', {
    schema: {
      tags: ['dropship'], summary: 'The account\'s dropship orders, newest first; `external_ref` finds one',
      querystring: schemas.DropshipOrdersQuery,
      response: { 200: obj({ orders: { type: 'array', items: dropshipOrderSchema }, has_more: { type: 'boolean' }, next_cursor: strN }, ['orders']), ...errorResponses(403) },
    },
  }, async (request) => listDropshipOrders(ctx, callerOf(request), request.query as schemas.DropshipOrdersQuery));

  app.get('/v1/dropship/orders/:order_id', {
    schema: { tags: ['dropship'], summary: 'A dropship order with its status, tracking and charges', params: schemas.DropshipOrderInput, response: { 200: wrappedOrder, ...errorResponses(403) } },
  }, async (request) => getDropshipOrder(ctx, callerOf(request), request.params as schemas.DropshipOrderInput));

  app.get('/v1/dropship/webhook-endpoints', {
    schema: { tags: ['dropship'], summary: 'Active dropship webhook endpoints (secrets never returned)', response: { 200: obj({ endpoints: { type: 'array', items: endpointSchema } }), ...errorResponses(403) } },
  }, async (request) => listDropshipEndpoints(ctx, callerOf(request)));

  app.post('/v1/dropship/webhook-endpoints', {
    config: { accepts: ['json'] },
    schema: {
      tags: ['dropship'], summary: 'Create a dropship webhook endpoint',
      description: '`events` defaults to every dropship event. The signing `secret` (whsec_...) is in this response only.',
      body: schemas.DropshipEndpointCreate, response: { 201: endpointWithSecret, ...errorResponses(403, 415) },
    },
  }, async (request, reply) => reply.code(201).send(await createDropshipEndpoint(ctx, callerOf(request), request.body as schemas.DropshipEndpointCreate)));

  app.delete('/v1/dropship/webhook-endpoints/:endpoint_id', {
    schema: { tags: ['dropship'], summary: 'Deactivate a dropship webhook endpoint; pending deliveries are abandoned', params: schemas.DropshipEndpointInput, response: { 204: noContentResponse, ...errorResponses(403) } },
  }, async (request, reply) => {
    await deleteDropshipEndpoint(ctx, callerOf(request), request.params as schemas.DropshipEndpointInput);
    return reply.code(204).send();
  });
}
