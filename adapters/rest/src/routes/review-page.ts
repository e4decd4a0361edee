// The review page behind a review link's review_url: a person inspects the design and the
// configuration, edits it, and saves; the agent reads it back with GET /v1/review-links/{id}.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { escapeHtml as esc, getReviewPage, saveReviewConfiguration, schemas, type ReviewPage, type UseCaseContext } from '@kerf/usecases';
import { errorSchema, reviewLinkSchema } from '../schemas.ts';

const mm = (v: unknown): string => (typeof v === 'number' ? v.toFixed(2) : '-');

function page(nonce: string, p: ReviewPage): string {
  const d = p.design;
  const rows = (d?.parts ?? []).map((part) => `<tr><td><code>${esc(part.id)}</code></td><td>${esc(part.name)}</td><td>${esc(part.suggested_process)}</td>
    <td>${part.instance_count}</td><td>${mm(part.formed_dimensions.length_mm)} x ${mm(part.formed_dimensions.width_mm)} x ${mm(part.formed_dimensions.height_mm)}</td>
    <td>${mm(part.detected_thickness_mm)}</td><td>${part.manufacturable ? 'yes' : esc(part.unsupported_reason)}</td></tr>`).join('');
  const editable = p.link.status !== 'expired';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Review ${esc(d?.name ?? p.link.design_id)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:15px system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left}textarea{width:100%;min-height:16rem;font:13px monospace}
#msg{margin-top:.5rem}.err{color:#b00}.ok{color:#070}</style></head><body>
<h1>Review: ${esc(d?.name ?? p.link.design_id)}</h1>
<p>Status <strong id="status">${esc(p.link.status)}</strong> · link expires ${esc(p.link.expires_at)}</p>
<table><thead><tr><th>part</th><th>name</th><th>process</th><th>count</th><th>size (mm)</th><th>thickness (mm)</th><th>manufacturable</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Configuration</h2>
<textarea id="cfg"${editable ? '' : ' readonly'}>${esc(JSON.stringify(p.link.configuration, null, 2))}</textarea>
${editable ? '<button id="save">Save configuration</button>' : ''}<div id="msg"></div>
<script nonce="${nonce}">
const btn = document.getElementById('save');
if (btn) btn.onclick = async () => {
  const msg = document.getElementById('msg');
  let configuration;
  try { configuration = JSON.parse(document.getElementById('cfg').value); } catch (e) { msg.className = 'err'; msg.textContent = 'Not valid JSON: ' + e.message; return; }
  const r = await fetch(location.pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ configuration }) });
  const body = await r.json();
  if (r.ok) { msg.className = 'ok'; msg.textContent = 'Saved.'; document.getElementById('status').textContent = body.status; }
  else { msg.className = 'err'; msg.textContent = (body.error.param ? body.error.param + ': ' : '') + body.error.message; }
};
</script></body></html>`;
}

export async function reviewPageRoutes(app: FastifyInstance, ctx: UseCaseContext): Promise<void> {
  const params = schemas.ReviewLinkInput;
  app.get('/review/:review_link_id', { config: { public: true }, schema: { hide: true, params } }, async (request, reply) => {
    const p = await getReviewPage(ctx, request.params as schemas.ReviewLinkInput);
    const nonce = randomBytes(16).toString('base64');
    reply.header('content-security-policy', `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    return reply.type('text/html; charset=utf-8').send(page(nonce, p));
  });

  app.post('/review/:review_link_id', {
    config: { public: true, accepts: ['json'] },
    schema: {
      tags: ['review links'], summary: 'Save the configuration edited on the review page (the link id is the credential)', security: [],
      params,
      body: Type.Omit(schemas.SaveReviewInput, ['review_link_id']),
      response: { 200: reviewLinkSchema, 404: errorSchema, 409: errorSchema, 415: errorSchema, 422: errorSchema, 429: errorSchema },
    },
  }, async (request) => saveReviewConfiguration(ctx, { ...(request.body as object), ...(request.params as schemas.ReviewLinkInput) } as schemas.SaveReviewInput));
}
