// @kerf/webhooks: webhook delivery over HTTP behind the use cases' WebhookSender port (signing,
// SSRF guard, timeout, no redirects, capped response reads), and verifyWebhook for receivers.
export { createWebhookSender, type SenderOptions } from './sender.ts';
export { verifyWebhook, signWebhook, signatureHeader, SIGNATURE_HEADER, TIMESTAMP_HEADER, EVENT_HEADER, type VerifyOptions, type HeaderSource } from './signature.ts';
