// The dropship API (docs/commerce.md "Dropship"; all under /v1/dropship): items, orders (201 new, 200 the
// existing order of a repeated external_ref) and webhook endpoints. Bearer API key or the legacy
// `svc_key` header (./auth.ts).
import type { FastifyInstance } from 'fastify';
import {
  createDropshipEndpoint, createDropshipOrder, deleteDropshipEndpoint, getDropshipOrder, listDropshipEndpoints, listDropshipItems,
  listDropshipOrders, objects, schemas, type UseCaseContext,
} from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses, noContentResponse } from '../openapi.ts';

const { DropshipOrderEnvelope: wrappedOrder, DropshipOrderPage: orderPage, DropshipItemList: itemList, DropshipEndpointList: endpointList } = objects;
const endpointWithSecret = objects.withSecret(objects.DropshipEndpoint);

export async function dropshipRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/dropship/items', {
    schema: { tags: ['dropship'], summary: 'The account\'s dropship items, approved and requested', response: { 200: itemList, ...errorResponses(403) } },
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
      response: { 200: orderPage, ...errorResponses(403) },
    },
  }, async (request) => listDropshipOrders(ctx, callerOf(request), request.query as schemas.DropshipOrdersQuery));

  app.get('/v1/dropship/orders/:order_id', {
    schema: { tags: ['dropship'], summary: 'A dropship order with its status, tracking and charges', params: schemas.DropshipOrderInput, response: { 200: wrappedOrder, ...errorResponses(403) } },
  }, async (request) => getDropshipOrder(ctx, callerOf(request), request.params as schemas.DropshipOrderInput));

  app.get('/v1/dropship/webhook-endpoints', {
    schema: { tags: ['dropship'], summary: 'Active dropship webhook endpoints (secrets never returned)', response: { 200: endpointList, ...errorResponses(403) } },
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
