// The save behind the review page (the page itself is the web site's, at the same URL): the person's
// edited configuration posted as JSON, the link id the credential; the agent reads it back with
// GET /v1/review-links/{id}.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { saveReviewConfiguration, objects, schemas, type UseCaseContext } from '@kerf/usecases';
import { errorResponse } from '../openapi.ts';

export async function reviewPageRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.post('/review/:review_link_id', {
    config: { public: true, accepts: ['json'] },
    schema: {
      tags: ['review links'], summary: 'Save the configuration edited on the review page (the link id is the credential)', security: [],
      params: schemas.ReviewLinkInput,
      body: Type.Omit(schemas.SaveReviewInput, ['review_link_id']),
      response: { 200: objects.ReviewLink, 404: errorResponse, 409: errorResponse, 415: errorResponse, 422: errorResponse, 429: errorResponse },
    },
  }, async (request) => saveReviewConfiguration(ctx, { ...(request.body as object), ...(request.params as schemas.ReviewLinkInput) } as schemas.SaveReviewInput));
}
