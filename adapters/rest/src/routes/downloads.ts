import type { FastifyInstance } from 'fastify';
import type { UseCaseContext } from '@kerf/usecases/context.ts';
import { openDownload } from '@kerf/usecases/files.ts';
import { errorSchema } from '../schemas.ts';

/** The targets of every 307: signed, short-lived, no bearer needed (the signature is the credential). */
export async function downloadRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get('/v1/downloads/:token', {
    config: { public: true },
    schema: {
      tags: ['files'], summary: 'Signed download (target of the 307 redirects)', security: [],
      params: { type: 'object', properties: { token: { type: 'string', maxLength: 4096 } }, required: ['token'] },
      response: { 200: { description: 'The file', type: 'string', format: 'binary' }, 403: errorSchema, 404: errorSchema },
    },
  }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const file = await openDownload(ctx, token);
    reply.header('cache-control', 'private, max-age=300');
    reply.header('content-disposition', `attachment; filename="${file.fileName.replace(/"/g, '')}"`);
    return reply.type(file.contentType).send(file.body);
  });
}
