import type { FastifyInstance } from 'fastify';
import {
  createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints, redeliverWebhookDelivery, rollWebhookSecret,
  objects, schemas, type UseCaseContext,
} from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses, noContentResponse, pathAndQuery } from '../openapi.ts';
import { inputOf } from './designs.ts';

const endpointParams = schemas.WebhookEndpointInput;
const webhookEndpointSchema = objects.WebhookEndpoint;
/** The endpoint as created or with a rolled secret: the only responses that carry `secret`. */
const webhookEndpointWithSecretSchema = objects.withSecret(objects.WebhookEndpoint);

export async function webhookEndpointRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/webhook-endpoints', {
    schema: { tags: ['webhooks'], summary: 'List active webhook endpoints (no secrets)', querystring: schemas.ListWebhookEndpointsInput, response: { 200: objects.listOf(webhookEndpointSchema), ...errorResponses(403) } },
  }, async (request) => listWebhookEndpoints(ctx, callerOf(request), request.query as schemas.ListWebhookEndpointsInput));

  app.post('/v1/webhook-endpoints', {
    config: { accepts: ['json'], idempotent: true },
    schema: {
      tags: ['webhooks'], summary: 'Create a webhook endpoint',
      description: '`events` defaults to every event. The response carries the signing `secret` (whsec_...), shown only here.',
      body: schemas.WebhookEndpointCreate,
      response: { 201: webhookEndpointWithSecretSchema, ...errorResponses(403, 409, 415) },
    },
  }, async (request, reply) => reply.code(201).send(await createWebhookEndpoint(ctx, callerOf(request), request.body as schemas.WebhookEndpointCreate)));

  app.get('/v1/webhook-endpoints/:endpoint_id', {
    schema: { tags: ['webhooks'], summary: 'Get a webhook endpoint', params: endpointParams, response: { 200: webhookEndpointSchema, ...errorResponses(403) } },
  }, async (request) => getWebhookEndpoint(ctx, callerOf(request), request.params as schemas.WebhookEndpointInput));

  app.delete('/v1/webhook-endpoints/:endpoint_id', {
    schema: { tags: ['webhooks'], summary: 'Delete (deactivate) a webhook endpoint; pending deliveries are abandoned', params: endpointParams, response: { 204: noContentResponse, ...errorResponses(403) } },
  }, async (request, reply) => {
    await deleteWebhookEndpoint(ctx, callerOf(request), request.params as schemas.WebhookEndpointInput);
    return reply.code(204).send();
  });

  app.get('/v1/webhook-endpoints/:endpoint_id/deliveries', {
    schema: {
      tags: ['webhooks'], summary: 'Recent delivery attempts, newest first',
      ...pathAndQuery(schemas.WebhookDeliveriesInput, ['endpoint_id']),
      response: { 200: objects.listOf(objects.WebhookDelivery), ...errorResponses(403) },
    },
  }, async (request) => listWebhookDeliveries(ctx, callerOf(request), inputOf(request)));

  app.post('/v1/webhook-endpoints/:endpoint_id/deliveries/:delivery_id/redeliver', {
    config: { idempotent: true },
    schema: {
      tags: ['webhooks'], summary: 'Send a failed delivery again',
      description: 'For a delivery that ended `failed` (its six attempts used up; name its last attempt): the same event is sent again as a new delivery with attempts of its own. Answers 202 with the new delivery\'s first attempt (`pending`); asking again for the same failed delivery answers that same attempt. 409 `delivery_not_failed` for a delivery that succeeded, is still being retried, or was abandoned.',
      params: schemas.WebhookDeliveryInput,
      response: { 202: objects.WebhookDelivery, ...errorResponses(403, 409) },
    },
  }, async (request, reply) => reply.code(202).send(await redeliverWebhookDelivery(ctx, callerOf(request), request.params as schemas.WebhookDeliveryInput)));

  app.post('/v1/webhook-endpoints/:endpoint_id/roll-secret', {
    schema: {
      tags: ['webhooks'], summary: 'Roll the signing secret',
      description: 'Returns the endpoint with its new `secret`. For 24 hours deliveries carry both signatures: `v1=<new>,v1=<old>`.',
      params: endpointParams,
      response: { 200: webhookEndpointWithSecretSchema, ...errorResponses(403, 409) },
    },
  }, async (request) => rollWebhookSecret(ctx, callerOf(request), request.params as schemas.WebhookEndpointInput));
}
