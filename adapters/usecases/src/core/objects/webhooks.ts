// Webhook endpoints and their deliveries as the API serves them (docs/api.md "Webhooks").
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { createdAt, enumOf, id, objectName, orNull, timeOrNull } from '@kerf/contract';

const Secret = Type.String({ pattern: '^whsec_', description: 'Signing secret of the webhook endpoint, shown once.' });

/** The endpoint as created or with a rolled secret: the only responses that carry `secret`. */
export const withSecret = <T extends TProperties>(schema: TObject<T>) => Type.Object({ ...schema.properties, secret: Secret });

export const WebhookEndpoint = Type.Object({
  id: id('endpoint (`whe_...`)'),
  object: objectName('webhook_endpoint'),
  url: Type.String({ description: 'The HTTPS URL the webhook events are POSTed to (signed; see the webhooks section of the API guide).' }),
  events: Type.Array(Type.String(), { description: 'Event types the endpoint receives.' }),
  description: orNull<string>({ type: 'string', description: 'Your description of the endpoint, or null.' }),
  active: Type.Boolean({ description: 'Whether it is in use (an inactive one receives nothing).' }),
  created_at: createdAt,
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookDelivery = Type.Object({
  id: id('delivery'),
  event_id: Type.String({ description: 'The event delivered.' }),
  event_type: Type.String({ description: 'The event\'s type, e.g. `design.ready`.' }),
  status: enumOf(['pending', 'succeeded', 'failed', 'abandoned'] as const, { description: '`pending` (another attempt is due), `succeeded`, `failed` or `abandoned`.' }),
  attempt: Type.Integer({ description: 'Delivery attempt number, from 1.' }),
  response_status: orNull<number>({ type: 'integer', description: 'HTTP status the receiver answered, or null.' }),
  error: orNull<string>({ type: 'string', description: 'What went wrong, or null.' }),
  created_at: createdAt,
  next_attempt_at: timeOrNull('When the next delivery attempt is due (ISO 8601), or null.'),
  delivered_at: timeOrNull('When it was delivered (ISO 8601), or null.'),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** A dropship webhook endpoint (the dropship API's own, docs/commerce.md "Dropship"): the same fields, no `object`. */
export const DropshipEndpoint = Type.Object({
  id: id('endpoint'),
  url: WebhookEndpoint.properties.url,
  events: WebhookEndpoint.properties.events,
  active: WebhookEndpoint.properties.active,
  created_at: createdAt,
});
export type DropshipEndpoint = Static<typeof DropshipEndpoint>;

