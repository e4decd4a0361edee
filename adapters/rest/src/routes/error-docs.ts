// The error reference every error's doc_url points into, served by the service itself so that a
// self-hosted operator's users can always open it.
import type { FastifyInstance } from 'fastify';
import { contentSecurityPolicy, cspHash, escapeHtml as esc } from '@kerf/http';
import { ERROR_CODES, type ErrorCodeDoc } from '@kerf/usecases';
import { ERROR_DOCS_PATH } from '../envelope.ts';
import { EXTRA_STATUSES, STATUS_BY_KIND } from '../http-errors.ts';

/** The registry with the HTTP statuses of this adapter: none for a code no error response carries. */
const DOCUMENTED = ERROR_CODES.map(({ code, type, kind, ...rest }) => ({ code, type, status: kind ? [STATUS_BY_KIND[kind], ...(EXTRA_STATUSES[code] ?? [])] : [], ...rest }));

// Backticks in the registry mark names the caller types (headers, fields).
const prose = (s: string): string => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>');

function section(e: Omit<ErrorCodeDoc, 'kind'> & { status: number[] }): string {
  const status = e.status.length ? e.status.join(', ') : 'none (not an error response)';
  return `<section id="${esc(e.code)}"><h2><a href="#${esc(e.code)}"><code>${esc(e.code)}</code></a></h2>
<p class="meta">type <code>${esc(e.type)}</code> · HTTP ${esc(status)} · retryable ${e.retryable ? 'yes' : 'no'}</p>
<p>${prose(e.meaning)}</p><p><strong>What to do:</strong> ${prose(e.action)}</p></section>`;
}

// one small inline stylesheet, allowed by its hash: the reference stands alone (no web site assets needed)
const STYLE = `body{font:15px system-ui,sans-serif;margin:2rem auto;max-width:50rem;padding:0 1rem;line-height:1.45}
section{border-top:1px solid #ddd;padding:.3rem 0}h2{font-size:1.1rem;margin:.6rem 0 .2rem}h2 a{color:inherit;text-decoration:none}
.meta{color:#555;margin:.2rem 0}section:target{background:#fff8d6}ul{columns:3}`;
const CSP = contentSecurityPolicy({ styles: [cspHash(STYLE)], formAction: 'none' });

function page(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kerf API errors</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>${STYLE}</style></head><body>
<h1>Kerf API errors</h1>
<p>Every error response is <code>{"error": {type, code, message, param, details, request_id, retryable, doc_url}}</code>;
<code>doc_url</code> links to the code's section below. The same list as JSON: <a href="${ERROR_DOCS_PATH}.json">${ERROR_DOCS_PATH}.json</a>.</p>
<ul>${DOCUMENTED.map((e) => `<li><a href="#${esc(e.code)}">${esc(e.code)}</a></li>`).join('')}</ul>
${DOCUMENTED.map(section).join('\n')}
</body></html>`;
}

export async function errorDocRoutes(app: FastifyInstance): Promise<void> {
  const html = page();
  app.get(ERROR_DOCS_PATH, { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    return reply.header('content-security-policy', CSP).type('text/html; charset=utf-8').send(html);
  });
  app.get(`${ERROR_DOCS_PATH}.json`, { config: { public: true }, schema: { hide: true } }, async () =>
    ({ object: 'list', data: DOCUMENTED, has_more: false, next_cursor: null }));
}
