import { escapeHtml } from '@kerf/http';

// Server-rendered pages: every value from a person or a client goes through escapeHtml; no inline
// script or style (the Content-Security-Policy forbids them); one stylesheet from an npm package.
export const STYLESHEET = '/assets/pico.min.css';
/** this site's own styles and scripts (adapters/web/assets) and the 3D viewer's bundle */
export const SITE_ASSETS = '/assets/site/';
export const MODEL_VIEWER = '/assets/model-viewer/model-viewer.min.js';

/** A fragment of trusted markup, built by these templates. */
export interface Html { readonly html: string }
export const raw = (html: string): Html => ({ html });

/** Tagged template: interpolated values are escaped unless they are Html (or arrays of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((v, i) => {
    const part = (x: unknown): string => (x && typeof x === 'object' && 'html' in x ? (x as Html).html : escapeHtml(x));
    out += (Array.isArray(v) ? v.map(part).join('') : part(v)) + strings[i + 1];
  });
  return raw(out);
}

export interface LayoutOptions {
  /** the signed-in person's email, for the header */
  email?: string | null;
  /** CSRF token for the sign-out form */
  csrf?: string;
  /** module scripts of this site (files under /assets/site/; never inline) */
  scripts?: string[];
  /** extra <head> markup built by the templates (e.g. a refresh while a design is analysed) */
  head?: Html;
}

export function layout(title: string, body: Html, opts: LayoutOptions = {}): string {
  const nav = opts.email
    ? html`<li><a href="/designs/new">Upload</a></li><li><a href="/orders">Orders</a></li><li><a href="/account">${opts.email}</a></li><li><form method="post" action="/signout"><input type="hidden" name="_csrf" value="${opts.csrf ?? ''}"><button type="submit" class="secondary outline">Sign out</button></form></li>`
    : html`<li><a href="/signin">Sign in</a></li>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Kerf</title><link rel="stylesheet" href="${STYLESHEET}"><link rel="stylesheet" href="${SITE_ASSETS}site.css">
${opts.head?.html ?? ''}${(opts.scripts ?? []).map((s) => `<script type="module" src="${escapeHtml(s)}"></script>`).join('')}</head>
<body><header class="container"><nav><ul><li><strong>Kerf</strong></li></ul><ul>${nav.html}</ul></nav></header>
<main class="container"><h1>${escapeHtml(title)}</h1>
${body.html}
</main></body></html>`;
}

export function alert(message: string | null | undefined): Html {
  return message ? html`<p role="alert" id="form-error"><strong>${message}</strong></p>` : raw('');
}
