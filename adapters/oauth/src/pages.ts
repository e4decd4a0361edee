// The few pages oidc-provider itself renders (device code entry and confirmation, device success,
// protocol errors), in the web site's look (its stylesheet) and without inline script or style, so
// they pass the same Content-Security-Policy.
import type { ErrorOut } from 'oidc-provider';
import { escapeHtml } from '@kerf/http';

export const STYLESHEET = '/assets/pico.min.css';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Kerf</title><link rel="stylesheet" href="${STYLESHEET}"></head>
<body><main class="container"><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

/** oidc-provider's form carries its own CSRF token (xsrf); only that and the action are taken from it. */
function formParts(form: string): { action: string; xsrf: string } {
  const action = /action="([^"]*)"/.exec(form)?.[1] ?? '';
  const xsrf = /name="xsrf" value="([^"]*)"/.exec(form)?.[1] ?? '';
  return { action, xsrf };
}

export function deviceInputPage(form: string, error: string | null): string {
  const { action, xsrf } = formParts(form);
  return page('Connect a device', `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<p>Enter the code the agent shows you.</p>
<form method="post" action="${action}">
<input type="hidden" name="xsrf" value="${xsrf}">
<label for="user_code">Code</label>
<input id="user_code" name="user_code" type="text" autocomplete="off" autofocus required>
<button type="submit">Continue</button>
</form>`);
}

export function deviceConfirmPage(form: string, clientName: string, userCode: string): string {
  const { action, xsrf } = formParts(form);
  return page('Confirm the device', `<p><strong>${escapeHtml(clientName)}</strong> asks to connect to your Kerf account.</p>
<p>Check that the agent shows this code: <code id="user-code">${escapeHtml(userCode)}</code></p>
<form method="post" action="${action}">
<input type="hidden" name="xsrf" value="${xsrf}">
<input type="hidden" name="user_code" value="${escapeHtml(userCode)}">
<button type="submit" name="confirm" value="yes">Continue</button>
<button type="submit" name="abort" value="yes" class="secondary">Cancel</button>
</form>`);
}

export function deviceSuccessPage(clientName: string): string {
  return page('Done', `<p id="device-done">Your answer to ${escapeHtml(clientName)} is recorded. You can close this page and return to the agent.</p>`);
}

export function errorPage(out: ErrorOut): string {
  return page('This request cannot continue', `<p role="alert"><code>${escapeHtml(out.error)}</code>: ${escapeHtml(out.error_description ?? '')}</p>`);
}
