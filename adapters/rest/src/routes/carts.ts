import type { FastifyInstance } from 'fastify';
import { createCart, getCart, payCart, updateCart, objects, schemas, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { notFinalAnswer } from '../idempotency.ts';
import { errorResponses } from '../openapi.ts';

const cartSchema = objects.Cart;

const cartParams = schemas.CartInput;

export async function cartRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/carts', {
    config: { accepts: ['json'], idempotent: true },
    schema: {
      tags: ['carts'], summary: 'Create a cart',
      description: 'The items of a quote request, `ship_to?` (US), `shipping_option_id?` (from quote.fulfillment.shipping_options), `client_reference_id?`. The cart carries `cart_url`, its checkout page on the web site. 201 created, 200 idempotent replay.',
      body: schemas.CartCreate,
      response: { 201: cartSchema, 200: cartSchema, ...errorResponses(403, 409, 415) },
    },
  }, async (request, reply) => {
    const cart = await createCart(ctx, callerOf(request), request.body as schemas.CartCreate);
    reply.header('location', cart.status_url as string);
    return reply.code(201).send(cart);
  });

  app.get('/v1/carts/:cart_id', {
    schema: { tags: ['carts'], summary: 'Get a cart', params: cartParams, response: { 200: cartSchema, ...errorResponses(403) } },
  }, async (request) => getCart(ctx, callerOf(request), request.params as schemas.CartInput));

  app.patch('/v1/carts/:cart_id', {
    config: { accepts: ['json'] },
    schema: {
      tags: ['carts'], summary: 'Change a cart',
      description: 'Any of `items`, `ship_to` (US only), `shipping_option_id` (from the cart\'s quote); omitted fields keep their value. Re-quotes, recalculates shipping and tax, and bumps `revision`.',
      params: cartParams, body: schemas.CartPatch,
      response: { 200: cartSchema, ...errorResponses(403, 409, 415) },
    },
  }, async (request) => updateCart(ctx, callerOf(request), { ...(request.body as schemas.CartPatch), ...(request.params as schemas.CartInput) }));

  app.post('/v1/carts/:cart_id/pay', {
    config: { accepts: ['json'], idempotent: true },
    schema: {
      tags: ['carts'], summary: 'Pay a cart with the card on file',
      description: 'Body `{payment: {type: "card_on_file"} | {type: "payment_method", id}}`. Rechecks the cart (ship_to, a selected shipping option, a ready quote, calculated tax, a saved card) and charges it once. 200 checked out with `order_id`; 202 while the payment is processing (retry with the same Idempotency-Key, or GET the cart); 402 card_declined or payment_not_completed with nothing created.',
      params: cartParams, body: schemas.CartPayBody,
      response: { 200: cartSchema, 202: cartSchema, ...errorResponses(402, 403, 409, 415) },
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const key = request.idempotencyKey ?? null;
    const result = await payCart(ctx, caller, {
      ...(request.body as schemas.CartPayBody), ...(request.params as schemas.CartInput), ...(key ? { idempotency_key: key } : {}),
    });
    // not a final answer: a retry with the same key runs again and sees how the payment settled
    if (result.outcome === 'processing') await notFinalAnswer(ctx.store, request);
    return reply.code(result.outcome === 'processing' ? 202 : 200).send(result.cart);
  });
}
