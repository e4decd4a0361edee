// A person signed up on the web site, for tests that drive its pages with fetch (no browser).
import assert from 'node:assert/strict';
import type { TestService } from './service.ts';

/** A browser's cookies, by hand: kept from each answer's Set-Cookie (an emptied or expired one removed), sent back as one Cookie header. */
export class CookieJar extends Map<string, string> {
  keep(res: Response): Response {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.delete(pair.slice(0, i));
      else this.set(pair.slice(0, i), value);
    }
    return res;
  }

  header(): Record<string, string> {
    return this.size ? { cookie: [...this].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }
}

/** A signed-up person's session cookie and the upload form's CSRF token. */
export async function webSession(t: TestService): Promise<{ cookie: string; csrf: string; email: string }> {
  const cookies = new CookieJar();
  const keep = (r: Response): void => { cookies.keep(r); };
  const jar = (): string => cookies.header().cookie ?? '';
  const csrfOf = async (r: Response): Promise<string> => /name="_csrf" value="([^"]+)"/.exec(await r.text())![1];
  let r = await fetch(`${t.url}/signup`);
  keep(r);
  const email = `web-${Date.now()}-${Math.random().toString(36).slice(2)}@test.local`;
  const body = new URLSearchParams({ _csrf: await csrfOf(r), next: '/designs/new', email, password: 'a long enough password' });
  r = await fetch(`${t.url}/signup`, { method: 'POST', headers: { cookie: jar(), 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  assert.equal(r.status, 303, await r.text());
  keep(r);
  r = await fetch(`${t.url}/designs/new`, { headers: { cookie: jar() } });
  keep(r);
  return { cookie: jar(), csrf: await csrfOf(r), email };
}
