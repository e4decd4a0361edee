// @kerf/rest: the /v1 manufacturing API as a fastify plugin the service registers, and the links
// to what it serves (also at @kerf/rest/links, without fastify).
export { restApi, API_VERSION, DEFAULT_MAX_UPLOAD_BYTES, JSON_BODY_LIMIT, MAX_PARAM_LENGTH, type RestOptions } from './plugin.ts';
export { envelope, toUseCaseError } from './envelope.ts';
export { answerClientError } from './client-errors.ts';
export { statusOf, STATUS_BY_KIND } from './http-errors.ts';
export { restLinks, DOWNLOAD_PATH } from './links.ts';
