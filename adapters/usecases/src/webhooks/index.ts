export { DELIVERY_TIMEOUT_MS, type DeliveryDoc, MAX_DELIVERY_ATTEMPTS, RETRY_DELAYS_MS, WEBHOOK_DELIVERY_JOB, webhookDeliveryJob } from './delivery.ts';
export { createEndpointWithinCap, type EndpointDoc, endpoints, newSecret } from './endpoint-records.ts';
export { checkUrl, createWebhookEndpoint, deactivateEndpoint, deleteWebhookEndpoint, type EndpointView, type EndpointWithSecret, getWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints, redeliverFailedSince, redeliverWebhookDelivery, rollWebhookSecret, type RedeliverFailedSinceInput } from './endpoints.ts';
export { EventRelay, type EventRelayOptions, relayEvents } from './relay.ts';
