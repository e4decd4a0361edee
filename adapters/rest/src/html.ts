// Text into the service's own HTML pages (review page, error reference): escaped for element content and
// quoted attributes alike.
// Bidirectional controls are dropped: a file named 'invoice\u202Efdp.step' must not show as 'invoicepets.pdf'.
export const escapeHtml = (v: unknown): string => String(v ?? '').replace(BIDI_CONTROLS, '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Unicode bidirectional formatting characters (embeddings, overrides, isolates, marks). */
export const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
