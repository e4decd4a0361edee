// What a processor serves over HTTP, as a fastify plugin the service registers: the embedded
// processor's hosted card page (it plays Stripe's hosted setup page: a person picks a test card),
// and the processor's webhook (Stripe's, signature verified) for payments that settle later.
//
// The setup page is plain HTML with a form and no script; the session id in its URL is unguessable
// and single-purpose, so the form needs no other CSRF token.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
// `schema.hide` (keep these routes out of the OpenAPI document) is @fastify/swagger's addition to fastify's types
import type {} from '@fastify/swagger';
import { contentSecurityPolicy, cspHash, escapeHtml as esc, rateLimitHeaders } from '@kerf/http';
import { addressSubject, UseCaseError, type PaymentProcessor, type RateLimiter } from '@kerf/usecases';
import { EmbeddedPaymentProcessor } from './embedded.ts';
import { TEST_CARDS } from './test-cards.ts';

export const SETUP_PAGE_PATH = '/payment-methods/setup';
export const WEBHOOK_PATH = '/v1/payment-webhooks';
/** Largest webhook body, bytes (Stripe's events are a few KiB). */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

export interface PaymentRoutesOptions {
  processor: PaymentProcessor;
  /** The service's one limiter: the setup pages count against the client address. None: not counted. */
  rateLimiter?: RateLimiter;
}

// one small inline stylesheet, allowed by its hash; the session id in the URL is a credential: no referrer
const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem;color:#1d2433;background:#f6f7f9}'
  + 'h1{font-size:1.5rem}form,p.box{background:#fff;border:1px solid #d5d9e0;border-radius:8px;padding:1rem 1.25rem}'
  + 'label{display:flex;gap:.6rem;align-items:baseline;margin:.15rem 0;padding:.45rem .5rem;border-radius:6px;cursor:pointer}'
  + 'label:hover{background:#eef2f8}code{font-size:.85em;color:#4a5568}'
  + 'button{font:inherit;background:#1f5fbf;color:#fff;border:0;border-radius:6px;padding:.55rem 1.25rem;cursor:pointer}'
  + 'button:focus-visible{outline:3px solid #f0b429;outline-offset:2px}';
const HEADERS = {
  'content-security-policy': contentSecurityPolicy({ styles: [cspHash(STYLE)] }),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function html(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply.headers(HEADERS).code(status).type('text/html; charset=utf-8').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>${STYLE}</style></head>
<body><h1>${esc(title)}</h1>${body}</body></html>`);
}

function setupForm(sessionId: string): string {
  const options = Object.entries(TEST_CARDS).map(([token, c], i) =>
    `<label><input type="radio" name="payment_method" value="${esc(token)}"${i === 0 ? ' checked' : ''}> ${esc(c.card.brand)} •••• ${esc(c.card.last4)}: ${esc(c.description)} <code>${esc(token)}</code></label>`).join('\n');
  return `<p>This service runs the embedded test processor: no real card is charged. Pick the test card to save on the account.</p>
<form method="post" action="${SETUP_PAGE_PATH}/${esc(sessionId)}">${options}<p><button type="submit">Save card</button></p></form>`;
}

export const paymentRoutes: FastifyPluginAsync<PaymentRoutesOptions> = async (app, { processor, rateLimiter }) => {
  if (processor instanceof EmbeddedPaymentProcessor) {
    // The setup pages have no session of their own (the link is the credential): each request counts
    // against its client address under the service's one limit, so guessing links is limited too.
    const limited = rateLimiter ? { onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        reply.headers(rateLimitHeaders(await rateLimiter.take(addressSubject(request.ip))));
      } catch (err) {
        if (!(err instanceof UseCaseError) || err.retryAfterSeconds === null) throw err;
        reply.header('retry-after', String(err.retryAfterSeconds));
        return html(reply, 429, 'Too many requests', `<p>Too many requests from your network. Try again in ${err.retryAfterSeconds} seconds.</p>`);
      }
    } } : {};
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
    const params = { type: 'object', properties: { session_id: { type: 'string', maxLength: 100 } }, required: ['session_id'] };

    app.get(`${SETUP_PAGE_PATH}/:session_id`, { schema: { hide: true, params }, ...limited }, async (request, reply) => {
      const { session_id } = request.params as { session_id: string };
      const session = await processor.setupSession(session_id);
      if (!session) return html(reply, 404, 'Setup link not found', '<p>This card setup link is not valid. Ask for a new one (GET /v1/account).</p>');
      if (session.status === 'completed') return html(reply, 200, 'Card saved', `<p>Saved: ${esc(session.card?.brand)} •••• ${esc(session.card?.last4)}. You can close this page.</p>`);
      return html(reply, 200, 'Save a card', setupForm(session_id));
    });

    app.post(`${SETUP_PAGE_PATH}/:session_id`, { schema: { hide: true, params }, ...limited }, async (request, reply) => {
      const { session_id } = request.params as { session_id: string };
      const token = (request.body as Record<string, unknown> | undefined)?.payment_method;
      if (typeof token !== 'string') return html(reply, 422, 'Pick a card', setupForm(session_id));
      try {
        const done = await processor.completeSetup(session_id, token);
        if (done.return_url) return reply.redirect(done.return_url, 303);
        return html(reply, 200, 'Card saved', `<p>Saved: ${esc(done.card.brand)} •••• ${esc(done.card.last4)}. You can close this page.</p>`);
      } catch (err) {
        if (!(err instanceof UseCaseError)) throw err;
        return html(reply, err.kind === 'not_found' ? 404 : 422, 'Card not saved', `<p>${esc(err.message)}</p>`);
      }
    });
  }

  if (processor.handleWebhook) {
    const handle = processor.handleWebhook.bind(processor);
    // the signature covers the bytes as sent: keep the body raw
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    app.post(`${WEBHOOK_PATH}/${processor.kind}`, { schema: { hide: true } }, async (request, reply) => {
      try {
        // the processor tells its listeners (the service settles the payment's cart)
        await handle(request.body as Buffer, request.headers);
        return reply.code(200).send({ received: true });
      } catch (err) {
        if (err instanceof UseCaseError && err.code === 'webhook_signature_invalid') {
          return reply.code(400).send({ error: { type: err.type, code: err.code, message: err.message } });
        }
        throw err; // 500: the processor sends it again later
      }
    });
  }
};
