// Sends one webhook attempt: POST with the signed X-SVC-* headers (docs/api.md "Webhooks"), to an address the
// SSRF guard accepts (checked on the URL and again on every resolved address, which is the one
// connected to, so a DNS answer cannot swap in a private address later), no redirects followed,
// a time limit on the whole exchange, and at most a few KiB of the response read.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isLoopback, refuseAddress, refuseHostName, REFUSED_ADDRESS, systemResolve, type Resolve } from '@kerf/http';
import type { WebhookOutcome, WebhookRequest, WebhookSender } from '@kerf/usecases';
import { EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signatureHeader } from './signature.ts';

export interface SenderOptions {
  /** Allow http:// (and addresses) on loopback: local development and tests only. */
  allowHttpLoopback?: boolean;
  /** Most response bytes read (the rest is dropped); default 4096. */
  maxResponseBytes?: number;
  /** User-Agent header; default 'kerf-webhooks/1'. */
  userAgent?: string;
  /** Name resolution (default the system resolver, dns.lookup); every address it gives is checked. */
  resolve?: Resolve;
}

export function createWebhookSender(opts: SenderOptions = {}): WebhookSender {
  const allowLoopback = opts.allowHttpLoopback === true;
  const maxBytes = opts.maxResponseBytes ?? 4096;
  const userAgent = opts.userAgent ?? 'kerf-webhooks/1';
  const resolveName = opts.resolve ?? systemResolve;

  function refuseUrl(raw: string): string | null {
    let url: URL;
    try { url = new URL(raw); } catch { return 'not an absolute URL'; }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (url.protocol === 'http:') {
      const loop = host === 'localhost' || (isIP(host) !== 0 && isLoopback(host));
      if (!allowLoopback || !loop) return 'webhook URLs must use https';
    } else if (url.protocol !== 'https:') {
      return 'webhook URLs must use https';
    }
    const named = refuseHostName(host);
    if (named) return named;
    if (host === 'localhost' && !allowLoopback) return 'localhost is a loopback address';
    if (isIP(host) !== 0) return refuseAddress(host, allowLoopback);
    return null;
  }

  const lookup = guardedLookup(allowLoopback, resolveName);

  async function send(req: WebhookRequest): Promise<WebhookOutcome> {
    const refused = refuseUrl(req.url);
    if (refused) return { delivered: false, responseStatus: null, error: `refused: ${refused}` };
    const url = new URL(req.url);
    const body = Buffer.from(req.body, 'utf8');
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': userAgent,
      [EVENT_HEADER]: req.eventType,
      [TIMESTAMP_HEADER]: String(req.timestamp),
      [SIGNATURE_HEADER]: signatureHeader(req.secrets, req.timestamp, body),
    };
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise<WebhookOutcome>((resolve) => {
      let settled = false;
      const finish = (o: WebhookOutcome): void => { if (!settled) { settled = true; clearTimeout(timer); resolve(o); } };
      const request = mod.request(url, { method: 'POST', headers, lookup, agent: false }, (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxBytes) res.destroy(); // only the status matters; a receiver cannot make us read more
        });
        const done = (): void => {
          const delivered = status >= 200 && status < 300;
          finish({ delivered, responseStatus: status, error: delivered ? null : `the receiver answered ${status}` });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish({ delivered: false, responseStatus: null, error: `no response within ${req.timeoutMs / 1000} s` });
      }, req.timeoutMs);
      request.on('error', (err: NodeJS.ErrnoException) => {
        finish({ delivered: false, responseStatus: null, error: err.code === REFUSED_ADDRESS ? err.message : `connection failed: ${err.code ?? err.message}` });
      });
      request.end(body);
    });
  }

  return { refuseUrl, send };
}
