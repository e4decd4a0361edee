import type { FastifyInstance } from 'fastify';
import type { UseCaseContext } from '@kerf/usecases/context.ts';
import { createReviewLink, getReviewLink, type ReviewLinkRequest } from '@kerf/usecases/review-links.ts';
import { callerOf } from '../auth.ts';
import { errorResponses, reviewLinkRequestSchema, reviewLinkSchema } from '../schemas.ts';

export async function reviewLinkRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/review-links', {
    config: { accepts: ['json'], idempotent: true },
    schema: { tags: ['review links'], summary: 'Create a review link carrying a configuration', body: reviewLinkRequestSchema, response: { 201: reviewLinkSchema, 200: reviewLinkSchema, ...errorResponses(409, 415, 422) } },
  }, async (request, reply) => reply.code(201).send(await createReviewLink(ctx, callerOf(request).accountId, request.body as ReviewLinkRequest)));

  app.get('/v1/review-links/:review_link_id', {
    schema: {
      tags: ['review links'], summary: 'Read a review link back (with its possibly edited configuration)',
      params: { type: 'object', properties: { review_link_id: { type: 'string', maxLength: 100 } }, required: ['review_link_id'] },
      response: { 200: reviewLinkSchema, ...errorResponses() },
    },
  }, async (request) => getReviewLink(ctx, callerOf(request).accountId, (request.params as { review_link_id: string }).review_link_id));
}
