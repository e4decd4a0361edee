// The Content-Security-Policy of every server-rendered HTML page (web site, review page, error
// reference, payment setup page, OAuth and MCP upload pages): one policy built here, never
// 'unsafe-inline'. A page's own inline <script> or <style> is allowed by its sha256 (cspHash) or a
// per-response nonce; everything else comes from this origin. The transports set it as a header
// (HTTP stays in the adapters).
import { createHash } from 'node:crypto';

export interface PageSecurityOptions {
  /** extra script-src sources ('sha256-...', 'nonce-...'); without any, only this origin's files */
  scripts?: string[];
  /** extra style-src sources ('sha256-...'), e.g. a component's shadow-DOM <style> */
  styles?: string[];
  /** where forms may post: this origin (default), none, or also other origins (an OAuth redirect) */
  formAction?: 'self' | 'none' | 'self-and-redirects';
  /**
   * 'wasm-unsafe-eval': the page's own scripts may compile WebAssembly (the 3D viewer's mesh
   * decoder does); it allows no eval() of JavaScript.
   */
  wasm?: boolean;
}

/** "'sha256-...'" of an inline element's exact text, for `scripts` or `styles`. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

const FORM_ACTION = { self: "'self'", none: "'none'", 'self-and-redirects': "'self' http: https:" } as const;

export function contentSecurityPolicy(o: PageSecurityOptions = {}): string {
  return [
    "default-src 'none'",
    `script-src ${[...(o.scripts ?? []), "'self'", ...(o.wasm ? ["'wasm-unsafe-eval'"] : [])].join(' ')}`,
    `style-src ${[...(o.styles ?? []), "'self'"].join(' ')}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action ${FORM_ACTION[o.formAction ?? 'self']}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}
