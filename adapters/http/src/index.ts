// @kerf/http: what every HTTP transport (REST, web site, OAuth, MCP, payment pages) shares and the
// use cases must not know: escaping for HTML pages, the pages' Content-Security-Policy, tying engine
// work to a waiting client, and who a request counts against under the rate limit.
export { escapeHtml } from './escape-html.ts';
export { contentSecurityPolicy, cspHash, type PageSecurityOptions } from './page-security.ts';
export { whileClientWaits, type ClientResponse } from './client-gone.ts';
export { requestSubject, signedLinkSubject } from './rate-subjects.ts';
