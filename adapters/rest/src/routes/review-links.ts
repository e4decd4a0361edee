import type { FastifyInstance } from 'fastify';
import { createReviewLink, getReviewLink, objects, schemas, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses } from '../openapi.ts';

const reviewLinkSchema = objects.ReviewLink;

export async function reviewLinkRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/v1/review-links', {
    config: { accepts: ['json'], idempotent: true },
    schema: { tags: ['review links'], summary: 'Create a review link carrying a configuration', body: schemas.ReviewLinkRequest, response: { 201: reviewLinkSchema, 200: reviewLinkSchema, ...errorResponses(409, 415, 422) } },
  }, async (request, reply) => reply.code(201).send(await createReviewLink(ctx, callerOf(request), request.body as schemas.ReviewLinkRequest)));

  app.get('/v1/review-links/:review_link_id', {
    schema: {
      tags: ['review links'], summary: 'Read a review link back (with its possibly edited configuration)',
      params: schemas.ReviewLinkInput,
      response: { 200: reviewLinkSchema, ...errorResponses() },
    },
  }, async (request) => getReviewLink(ctx, callerOf(request), request.params as schemas.ReviewLinkInput));
}
