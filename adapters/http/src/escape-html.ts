// Text into any of the service's server-rendered HTML pages (REST review page and error reference, web
// site, OAuth device pages): escaped for element content and quoted attributes alike. Bidirectional
// controls are dropped: a file named 'invoice\u202Efdp.step' must not show as 'invoicepets.pdf'.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(BIDI_CONTROLS, '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
