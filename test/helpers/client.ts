// A small HTTP client over fetch that validates every JSON response against the served OpenAPI document.
import assert from 'node:assert/strict';
import { fixtureBytes } from './fixtures.ts';
import { basename } from 'node:path';
import { OpenApiChecker } from './openapi.ts';

export interface Res<T = any> { status: number; headers: Headers; body: T; text: string }

export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  json?: unknown;
  /** raw body with its content type */
  raw?: { body: string | Uint8Array; contentType: string };
  form?: FormData;
  /** skip OpenAPI validation (raw downloads) */
  unchecked?: boolean;
}

export class Client {
  constructor(readonly baseUrl: string, readonly key: string, readonly openapi: OpenApiChecker) {}

  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<Res<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const key = opts.key === undefined ? this.key : opts.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: BodyInit | undefined;
    if (opts.json !== undefined) { headers['content-type'] = 'application/json'; body = JSON.stringify(opts.json); }
    else if (opts.raw) { headers['content-type'] = opts.raw.contentType; body = opts.raw.body as BodyInit; }
    else if (opts.form) body = opts.form;
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
    if (!opts.unchecked) this.openapi.check(method, path.split('?')[0], res.status, res.status === 307 ? null : parsed);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, opts?: RequestOptions) { return this.request<T>('GET', path, opts); }
  post<T = any>(path: string, opts?: RequestOptions) { return this.request<T>('POST', path, opts); }

  /** Follow one 307 to the signed download and return its bytes. */
  async download(path: string): Promise<{ status: number; contentType: string | null; bytes: Uint8Array; location: string }> {
    const r = await this.get(path);
    if (r.status !== 307) throw new Error(`expected 307 from ${path}, got ${r.status}: ${r.text}`);
    const location = r.headers.get('location')!;
    const res = await fetch(location);
    return { status: res.status, contentType: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()), location };
  }
}

export function stepForm(file: string, fields: Record<string, string> = {}, name = basename(file)): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([fixtureBytes(file)], { type: 'application/step' }), name);
  return form;
}

export async function pollDesign(client: Client, id: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await client.get(`/v1/designs/${id}`);
    if (r.status !== 200) throw new Error(`GET design ${id}: ${r.status} ${r.text}`);
    if (r.body.status === 'ready' || r.body.status === 'failed') return r.body;
    if (Date.now() > deadline) throw new Error(`design ${id} still ${r.body.status} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** The DFM report once its production files are no longer pending (ready or failed). */
export async function pollProductionFiles(client: Client, dfm: any, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let report = dfm;
  while (report.production_files.status === 'pending' && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 200));
    report = (await client.get(`/v1/dfm/${dfm.id}`)).body;
  }
  return report;
}

/** Clients of the two test accounts, validating against the service's own OpenAPI document. */
export async function clientsFor(t: { url: string; keyA: string; keyB: string }): Promise<{ a: Client; b: Client }> {
  const openapi = await OpenApiChecker.load(t.url);
  return { a: new Client(t.url, t.keyA, openapi), b: new Client(t.url, t.keyB, openapi) };
}

/** Saves a test card on the client's account through its hosted setup link (what a person does there). */
export async function saveTestCard(client: Client, token = 'pm_card_visa'): Promise<void> {
  const url = (await client.get('/v1/account')).body.payment_method_setup_url as string;
  const saved = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ payment_method: token }).toString() });
  assert.equal(saved.status, 200, await saved.text());
}
