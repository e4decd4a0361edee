import type { FastifyInstance } from 'fastify';
import { objects, type UseCaseContext } from '@kerf/usecases';
import { API_VERSION_HEADER_VALUE } from '../version.ts';

/** Liveness and store reachability, for load balancers and orchestrators (no key needed). */
export async function healthRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/health', {
    config: { public: true },
    schema: {
      tags: ['service'], summary: 'Service health', security: [],
      response: { 200: objects.Health, 503: objects.Health },
    },
  }, async (_request, reply) => {
    const store = await ctx.store.health().catch((err: Error) => ({ ok: false, kind: ctx.store.kind, detail: err.message }));
    return reply.code(store.ok && !ctx.shutdown?.aborted ? 200 : 503).send({ ok: store.ok && !ctx.shutdown?.aborted, store, version: API_VERSION_HEADER_VALUE });
  });
}
