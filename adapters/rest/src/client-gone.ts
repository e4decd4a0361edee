// REST's file routes make images and models while the client waits: abandoned with its connection
// (the use cases' whileClientWaits, shared by every transport).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { whileClientWaits as untilClientGone } from '@kerf/http';
import type { UseCaseContext } from '@kerf/usecases';

export function whileClientWaits(ctx: UseCaseContext, _request: FastifyRequest, reply: FastifyReply): UseCaseContext {
  return untilClientGone(ctx, reply.raw);
}
