// @kerf/rest: the /v1 manufacturing API as a fastify app.
export { buildApp, API_VERSION, DEFAULT_MAX_UPLOAD_BYTES, type RestConfig } from './app.ts';
export { envelope, toApiError } from './envelope.ts';
