// The pages: sign in, sign up, account (connections), OAuth consent.
import { OPTIONAL_SCOPES, type Scope } from '@kerf/usecases';
import { alert, html, layout, raw, type Html } from './html.ts';

const SCOPE_TEXT: Record<string, string> = {
  designs: 'Upload designs and read them',
  dfm: 'Run manufacturability (DFM) checks',
  quotes: 'Create and read quotes',
  carts: 'Create carts for you to check out',
  orders: 'Read your orders',
  webhooks: 'Manage webhook endpoints',
  payments: 'Pay carts with your saved card (needs carts)',
};

export function signInPage(o: { csrf: string; next: string; error?: string | null; email?: string; signupOpen: boolean }): string {
  return layout('Sign in', html`${alert(o.error)}
<form method="post" action="/signin">
<input type="hidden" name="_csrf" value="${o.csrf}"><input type="hidden" name="next" value="${o.next}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ''}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${o.signupOpen ? html`<p>No account? <a href="/signup?next=${encodeURIComponent(o.next)}">Sign up</a></p>` : raw('')}`);
}

export function signUpPage(o: { csrf: string; next: string; error?: string | null; email?: string }): string {
  return layout('Sign up', html`${alert(o.error)}
<form method="post" action="/signup">
<input type="hidden" name="_csrf" value="${o.csrf}"><input type="hidden" name="next" value="${o.next}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ''}">
<label for="password">Password (at least 10 characters)</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required>
<button type="submit">Create account</button>
</form>
<p>Have an account? <a href="/signin?next=${encodeURIComponent(o.next)}">Sign in</a></p>`);
}

/** A timestamp to the minute, in UTC, machine-readable underneath. */
const when = (iso: string | null): Html => (iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>` : raw('never'));

export interface ConnectionRow { id: string; client_name: string; client_id: string; scopes: string[]; created_at: string; last_used_at: string | null }

export interface AccountExtras {
  card: { brand: string; last4: string; exp_month: number; exp_year: number } | null;
  /** a payment processor is configured (a card can be saved) */
  canAddCard: boolean;
  dropship: { status: string } | null;
  webhooks: Array<{ id: string; url: string; events: string[] }>;
  /** the events an endpoint may receive (the add form's checkboxes) */
  eventTypes: readonly string[];
  /** an endpoint just added: its signing secret, shown this once */
  newWebhook?: { url: string; secret: string } | null;
  /** the add form's error and the values to show again */
  webhookError?: { message: string; url: string; events: string[] } | null;
  apiKeys: Array<{ id: string; label: string | null; prefix: string; created_at: string; last_used_at: string | null }>;
  /** a key just created: its plaintext, shown this once */
  newKey?: string | null;
}

function accountSections(x: AccountExtras, csrf: string): Html {
  const keys: Html[] = x.apiKeys.map((k) => html`<tr><td><code>${k.prefix}…</code></td><td>${k.label ?? ''}</td><td>${when(k.created_at)}</td><td>${when(k.last_used_at)}</td>
<td><form method="post" action="/account/api-keys/${encodeURIComponent(k.id)}/revoke"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Revoke key ${k.prefix}">Revoke</button></form></td></tr>`);
  return html`<section id="api-keys"><h2>API keys</h2>
${x.newKey ? html`<div role="alert"><p><strong>Copy your new key now: it is not shown again.</strong></p><p class="secret" id="new-api-key">${x.newKey}</p></div>` : raw('')}
${keys.length ? html`<table><thead><tr><th scope="col">Key</th><th scope="col">Label</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"></th></tr></thead><tbody>${keys}</tbody></table>` : html`<p>No API keys.</p>`}
<form method="post" action="/account/api-keys"><input type="hidden" name="_csrf" value="${csrf}">
<label for="key-label">Label (optional)</label><input id="key-label" name="label" maxlength="100">
<button type="submit">Create an API key</button></form>
</section>
<section id="card"><h2>Saved card</h2>
${x.card ? html`<p id="saved-card">${x.card.brand.toUpperCase()} ending ${x.card.last4}, expires ${x.card.exp_month}/${x.card.exp_year}. Orders placed by you or your agents are charged to it.</p>
<div class="actions"><form method="post" action="/account/card/setup"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" id="replace-card">Replace card</button></form>
<form method="post" action="/account/card/remove"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" id="remove-card" class="secondary">Remove card</button></form></div>
<p><small>A replacement is saved on the payment processor's page and charged from then on.</small></p>`
    : html`<p>No card is saved.</p>${x.canAddCard ? html`<form method="post" action="/account/card/setup"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" id="add-card">Add a card</button> <small>on the payment processor's page</small></form>` : raw('')}`}
</section>
<section id="webhooks"><h2>Webhook endpoints</h2>
${webhookSection(x, csrf)}
</section>
<section id="dropship"><h2>Dropship</h2><p>${x.dropship ? `Status: ${x.dropship.status.replace(/_/g, ' ')}` : 'Not set up for this account.'}</p></section>`;
}

function webhookSection(x: AccountExtras, csrf: string): Html {
  const rows: Html[] = x.webhooks.map((w) => html`<tr><td><code class="url">${w.url}</code></td><td>${w.events.length === x.eventTypes.length ? 'every event' : w.events.join(', ')}</td>
<td><form method="post" action="/account/webhooks/${encodeURIComponent(w.id)}/remove"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="secondary" aria-label="Remove endpoint ${w.url}">Remove</button></form></td></tr>`);
  const err = x.webhookError;
  const checked = (t: string) => (err ? err.events.includes(t) : true);
  const boxes: Html[] = x.eventTypes.map((t, i) => html`<label for="webhook-event-${i}"><input type="checkbox" id="webhook-event-${i}" name="events" value="${t}"${checked(t) ? raw(' checked') : raw('')}> <code>${t}</code></label>`);
  return html`${x.newWebhook ? html`<div role="alert"><p><strong>Copy the signing secret of <code>${x.newWebhook.url}</code> now: it is not shown again.</strong></p><p class="secret" id="new-webhook-secret">${x.newWebhook.secret}</p></div>` : raw('')}
${rows.length ? html`<table><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col"></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>No webhook endpoints.</p>`}
<form method="post" action="/account/webhooks#webhooks"><input type="hidden" name="_csrf" value="${csrf}">
${err ? html`<p role="alert" id="webhook-error" class="err"><strong>${err.message}</strong></p>` : raw('')}
<label for="webhook-url">Endpoint URL (https)</label><input id="webhook-url" name="url" type="url" inputmode="url" maxlength="2048" required placeholder="https://example.com/kerf-webhooks" value="${err?.url ?? ''}"${err ? raw(' aria-invalid="true" aria-describedby="webhook-error"') : raw('')}>
<fieldset class="events"><legend>Events to send (none checked: every event)</legend>${boxes}</fieldset>
<button type="submit">Add a webhook endpoint</button></form>`;
}

export function accountPage(o: { email: string; csrf: string; connections: ConnectionRow[]; notice?: string | null; extras?: AccountExtras }): string {
  const rows: Html[] = o.connections.map((c) => html`<tr>
<td>${c.client_name}${c.client_name !== c.client_id ? html`<br><small>${c.client_id}</small>` : raw('')}</td>
<td>${c.scopes.join(' ') || '(none)'}</td><td>${when(c.created_at)}</td><td>${when(c.last_used_at)}</td>
<td><form method="post" action="/account/connections/${encodeURIComponent(c.id)}/revoke"><input type="hidden" name="_csrf" value="${o.csrf}">
<button type="submit" class="secondary" aria-label="Revoke ${c.client_name}">Revoke</button></form></td></tr>`);
  return layout('Account', html`${o.notice ? html`<p role="status">${o.notice}</p>` : raw('')}
<p>Signed in as <strong>${o.email}</strong>.</p>
<section id="connections"><h2>Connected agents</h2>
${rows.length ? html`<table><thead><tr><th scope="col">Client</th><th scope="col">Scopes</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>No agent is connected to your account.</p>`}
</section>
${o.extras ? accountSections(o.extras, o.csrf) : raw('')}`, { email: o.email, csrf: o.csrf });
}

export function consentPage(o: {
  uid: string; csrf: string; email: string; clientName: string; clientId: string; redirectHost: string | null; device: boolean; requested: string[];
}): string {
  const boxes: Html[] = o.requested.map((s) => html`<label><input type="checkbox" name="scope" value="${s}"${OPTIONAL_SCOPES.includes(s as Scope) ? raw('') : raw(' checked')}> <code>${s}</code>: ${SCOPE_TEXT[s] ?? s}</label>`);
  return layout('Connect an agent', html`<p><strong id="client-name">${o.clientName}</strong> asks to connect to your Kerf account (<strong>${o.email}</strong>).</p>
${o.clientName !== o.clientId ? html`<p><small>Client: <code>${o.clientId}</code></small></p>` : raw('')}
${o.redirectHost ? html`<p>After you decide, you go back to <strong id="redirect-host">${o.redirectHost}</strong>.</p>` : raw('')}
${o.device ? html`<p>You started this from a device code.</p>` : raw('')}
<form method="post" action="/oauth/consent/${encodeURIComponent(o.uid)}">
<input type="hidden" name="_csrf" value="${o.csrf}">
<fieldset><legend>It may:</legend>${boxes.length ? boxes : html`<p>read catalogs and your account summary</p>`}</fieldset>
<p><small>Catalogs and your account summary are readable by every connection. It can never manage API keys, saved cards, sessions or other connections.</small></p>
<button type="submit" name="decision" value="approve">Connect</button>
<button type="submit" name="decision" value="deny" class="secondary">Decline</button>
</form>`, { email: o.email, csrf: o.csrf });
}

export function messagePage(title: string, message: string, opts: { email?: string | null; csrf?: string } = {}): string {
  return layout(title, html`<p role="alert">${message}</p>`, opts);
}
