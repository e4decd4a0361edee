// Interactive engine work (an image or a model made while the client waits) is for that client only:
// once its connection closes before the answer is sent, the work is abandoned (the use cases drop
// engine work still waiting for it, see UseCaseContext.signal).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UseCaseContext } from '@kerf/usecases';

export function whileClientWaits(ctx: UseCaseContext, _request: FastifyRequest, reply: FastifyReply): UseCaseContext {
  const gone = new AbortController();
  const onClose = (): void => { if (!reply.raw.writableEnded) gone.abort(); };
  reply.raw.once('close', onClose);
  return { ...ctx, signal: gone.signal };
}
