import type { FastifyInstance } from 'fastify';
import { getAccount, type UseCaseContext } from '@kerf/usecases';
import { callerOf } from '../auth.ts';
import { accountSchema, errorResponses } from '../schemas.ts';

export async function accountRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/account', {
    schema: {
      tags: ['account'], summary: 'The account: saved-card state, and where to save a card when none is saved',
      response: { 200: accountSchema, ...errorResponses() },
    },
  }, async (request) => getAccount(ctx, callerOf(request)));
}
