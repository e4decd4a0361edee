// A person signed up on the web site, for tests that drive its pages with fetch (no browser).
import assert from 'node:assert/strict';
import type { TestService } from './service.ts';

/** A signed-up person's session cookie and the upload form's CSRF token. */
export async function webSession(t: TestService): Promise<{ cookie: string; csrf: string }> {
  const cookies = new Map<string, string>();
  const keep = (r: Response): void => { for (const c of r.headers.getSetCookie()) { const kv = c.split(';')[0]; cookies.set(kv.split('=')[0], kv); } };
  const jar = (): string => [...cookies.values()].join('; ');
  const csrfOf = async (r: Response): Promise<string> => /name="_csrf" value="([^"]+)"/.exec(await r.text())![1];
  let r = await fetch(`${t.url}/signup`);
  keep(r);
  const body = new URLSearchParams({ _csrf: await csrfOf(r), next: '/designs/new', email: `web-${Date.now()}-${Math.random().toString(36).slice(2)}@test.local`, password: 'a long enough password' });
  r = await fetch(`${t.url}/signup`, { method: 'POST', headers: { cookie: jar(), 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  assert.equal(r.status, 303, await r.text());
  keep(r);
  r = await fetch(`${t.url}/designs/new`, { headers: { cookie: jar() } });
  keep(r);
  return { cookie: jar(), csrf: await csrfOf(r) };
}
