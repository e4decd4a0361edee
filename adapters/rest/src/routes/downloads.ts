import type { FastifyInstance } from 'fastify';
import { openDownload, schemas, type UseCaseContext } from '@kerf/usecases';
import { DOWNLOAD_PATH } from '../links.ts';
import { errorResponse } from '../openapi.ts';

/** The targets of every 307: signed, short-lived, no bearer needed (the signature is the credential). */
export async function downloadRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  app.get(`${DOWNLOAD_PATH}/:token`, {
    config: { public: true },
    schema: {
      tags: ['files'], summary: 'Signed download (target of the 307 redirects)', security: [],
      params: schemas.DownloadInput,
      response: { 200: { description: 'The file', type: 'string', format: 'binary' }, 403: errorResponse, 404: errorResponse },
    },
  }, async (request, reply) => {
    const file = await openDownload(ctx, request.params as schemas.DownloadInput);
    reply.header('cache-control', 'private, max-age=300');
    reply.header('content-disposition', `attachment; filename="${file.fileName.replace(/"/g, '')}"`);
    return reply.type(file.contentType).send(file.body);
  });
}
