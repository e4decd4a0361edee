import type { FastifyInstance } from 'fastify';
import { getAccount, objects, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { errorResponses } from '../openapi.ts';

export async function accountRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/account', {
    schema: {
      tags: ['account'], summary: 'The account: saved-card state, and where to save a card when none is saved',
      response: { 200: objects.Account, ...errorResponses() },
    },
  }, async (request) => getAccount(ctx, callerOf(request)));
}
