// @kerf/web: the web site (fastify plugin).
export { webSite, SESSION_COOKIE, type WebOptions, type ConsentPort, type ConsentRequest } from './plugin.ts';
