// The review page behind a review link's review_url (a person reviews what an agent
// configured): the design's parts and the configuration, editable as JSON until the link expires. The
// link id in the URL is the credential (no sign-in); saving posts JSON to the same URL, which the REST
// API answers (POST /review/{id}, in the OpenAPI document) and the agent reads back.
import type { ReviewPage } from '@kerf/usecases';
import { html, layout, raw, SITE_ASSETS, type Html } from './html.ts';

const mm = (v: unknown): string => (typeof v === 'number' ? String(Math.round(v * 10) / 10) : '—');
export function reviewPage(p: ReviewPage, who: { email?: string | null; csrf?: string }): string {
  const d = p.design;
  const editable = p.link.status !== 'expired';
  const rows: Html[] = (d?.parts ?? []).map((part) => html`<tr><td>${part.name}<br><small><code>${part.id}</code></small></td><td>${String(part.suggested_process ?? '').replace(/_/g, ' ')}</td>
<td>${part.instance_count}</td><td class="nowrap">${mm(part.formed_dimensions.length_mm)} × ${mm(part.formed_dimensions.width_mm)} × ${mm(part.formed_dimensions.height_mm)}</td>
<td>${mm(part.detected_thickness_mm)}</td><td>${part.bought_in ? `bought-in ${[part.bought_in.size, part.bought_in.kind.replace(/_/g, ' ')].filter(Boolean).join(' ')}: left out` : part.manufacturable ? 'yes' : String(part.unsupported_reason ?? 'no').replace(/_/g, ' ')}</td></tr>`);
  return layout(`Review: ${d?.name ?? p.link.design_id}`, html`<p>Status <strong id="status">${p.link.status}</strong> · this link expires <time datetime="${p.link.expires_at}">${String(p.link.expires_at ?? '').slice(0, 16).replace('T', ' ')} UTC</time></p>
<section id="parts"><h2>Parts</h2>
<div class="overflow-auto"><table><thead><tr><th scope="col">Part</th><th scope="col">Process</th><th scope="col">Count</th><th scope="col">Size (mm)</th><th scope="col">Thickness (mm)</th><th scope="col">Can be made</th></tr></thead><tbody>${rows}</tbody></table></div></section>
<section id="configuration"><h2>Configuration</h2>
<form id="review-form" data-review="${editable ? 'editable' : 'expired'}">
<label for="cfg">Configuration (JSON: material, finish and options per part)</label>
<textarea id="cfg" class="config" rows="16" spellcheck="false"${editable ? raw('') : raw(' readonly')}>${JSON.stringify(p.link.configuration, null, 2)}</textarea>
${editable ? html`<button type="submit" id="save" hidden>Save configuration</button><noscript><p>Saving needs JavaScript; the agent that sent this link can also change the configuration.</p></noscript>` : html`<p>This link has expired: the configuration can no longer be changed here.</p>`}
<p id="msg" role="status" aria-live="polite"></p>
</form></section>`, { ...who, scripts: editable ? [`${SITE_ASSETS}review.js`] : [] });
}
