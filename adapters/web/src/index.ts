// @kerf/web: the web site (fastify plugin).
export { webSite, SESSION_COOKIE, type WebOptions } from './plugin.ts';
