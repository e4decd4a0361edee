// A webhook receiver on 127.0.0.1 for end-to-end tests: it keeps every delivery and checks its
// signatures with its own node:crypto HMAC (not the library's), against the secrets it is told.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: { id: string; type: string; created_at: string; data: any };
  /** the v1= values of X-SVC-Signature, in order */
  signatures: string[];
}

export function hmacHex(secret: string, timestamp: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), raw])).digest('hex');
}

/** True when `signature` (hex) is the HMAC of this delivery under `secret`. */
export function signedWith(d: Delivery, secret: string, signature: string): boolean {
  const expected = Buffer.from(hmacHex(secret, String(d.headers['x-svc-timestamp']), d.raw), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type Answer = (d: Delivery, res: ServerResponse) => void;

export class Receiver {
  readonly deliveries: Delivery[] = [];
  answer: Answer = (_d, res) => { res.writeHead(200).end('ok'); };
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const sig = String(req.headers['x-svc-signature'] ?? '');
        const d: Delivery = {
          path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')),
          signatures: sig.split(',').filter((p) => p.startsWith('v1=')).map((p) => p.slice(3)),
        };
        this.deliveries.push(d);
        this.answer(d, res);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  to(path: string): Delivery[] { return this.deliveries.filter((d) => d.path === path); }

  /** Waits until `pred` holds over the deliveries (polling; fails after `timeoutMs`). */
  async until(pred: (all: Delivery[]) => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.deliveries)) {
      if (Date.now() > deadline) throw new Error(`receiver: timed out waiting for ${what}; got ${this.deliveries.map((d) => `${d.path} ${d.body.type} ${d.body.id}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
  }
}
