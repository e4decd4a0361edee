// Text into the service's own HTML pages (review page, error reference): escaped for element content and
// quoted attributes alike.
export const escapeHtml = (v: unknown): string => String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
