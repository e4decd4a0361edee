// @kerf/http: what every HTTP transport (REST, web site, OAuth, MCP, payment pages) shares and the
// use cases must not know: escaping for HTML pages, the pages' Content-Security-Policy, tying engine
// work to a waiting client, who a request counts against under the rate limit, the HTTP status
// of each kind of use-case error, and where the service's own outgoing requests may not go (SSRF).
export { escapeHtml } from './escape-html.ts';
export { contentSecurityPolicy, cspHash, type PageSecurityOptions } from './page-security.ts';
export { whileClientWaits, type ClientResponse } from './client-gone.ts';
export { rateLimitHeaders, requestSubject, signedLinkSubject } from './rate-subjects.ts';
export { STATUS_BY_KIND, statusOfKind } from './error-status.ts';
export { guardedLookup, isLoopback, refuseAddress, refuseHostName, REFUSED_ADDRESS, systemResolve, type Resolve } from './addresses.ts';
