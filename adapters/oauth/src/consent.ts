// What the web site's consent page needs from the authorization server: the pending request
// (client, redirect host, scopes) and a way to finish it with the person's decision. The web
// adapter declares the shape it wants; the service hands it this object (adapters do not import
// each other).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '@kerf/store';
import { SCOPES, oauthCollection, oauthDocId } from '@kerf/usecases';
import type Provider from 'oidc-provider';

export interface ConsentRequest {
  uid: string;
  kind: 'authorization' | 'device';
  clientId: string;
  clientName: string;
  /** Where the browser goes back to (authorization requests); null for devices. */
  redirectHost: string | null;
  /** The API scopes the client asked for. */
  requestedScopes: string[];
}

const OIDC_SCOPES = ['openid', 'offline_access'];

export function consentPort(provider: Provider, store: Store, issuer: string) {
  const details = async (req: IncomingMessage, res: ServerResponse) => {
    try { return await provider.interactionDetails(req, res); } catch { return null; }
  };
  return {
    /** The request behind the interaction cookie, or null when there is none or it expired. */
    async request(req: IncomingMessage, res: ServerResponse): Promise<ConsentRequest | null> {
      const d = await details(req, res);
      if (!d) return null;
      const clientId = String(d.params.client_id ?? '');
      const client = await provider.Client.find(clientId).catch(() => undefined);
      if (!client) return null;
      const redirect = typeof d.params.redirect_uri === 'string' ? URL.parse(d.params.redirect_uri) : null;
      const asked = String(d.params.scope ?? '').split(' ');
      return {
        uid: d.uid,
        kind: 'response_type' in d.params ? 'authorization' : 'device',
        clientId,
        clientName: client.clientName ?? clientId,
        redirectHost: redirect ? redirect.host : null,
        requestedScopes: SCOPES.filter((s) => asked.includes(s)),
      };
    },

    /** Connects with the scopes granted (the others are recorded as declined); returns where the browser goes next. */
    async approve(req: IncomingMessage, res: ServerResponse, accountId: string, granted: readonly string[]): Promise<string> {
      const d = await provider.interactionDetails(req, res);
      const clientId = String(d.params.client_id);
      const asked = String(d.params.scope ?? '').split(' ').filter(Boolean);
      const grant = new provider.Grant({ accountId, clientId });
      const api = asked.filter((s) => granted.includes(s) && (SCOPES as readonly string[]).includes(s));
      const declined = asked.filter((s) => !api.includes(s) && !OIDC_SCOPES.includes(s));
      if (api.length) grant.addResourceScope(issuer, api.join(' '));
      if (declined.length) grant.rejectResourceScope(issuer, declined.join(' '));
      const oidc = asked.filter((s) => OIDC_SCOPES.includes(s));
      if (oidc.length) grant.addOIDCScope(oidc.join(' '));
      const grantId = await grant.save();
      const client = await provider.Client.find(clientId);
      const grants = oauthCollection(store, 'Grant');
      const doc = await grants.get(accountId, oauthDocId(grantId));
      if (doc) await grants.update(accountId, doc.id, { ...doc.data, clientName: client?.clientName ?? clientId });
      return provider.interactionResult(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    },

    async deny(req: IncomingMessage, res: ServerResponse): Promise<string> {
      return provider.interactionResult(req, res, { error: 'access_denied', error_description: 'The person declined the connection.' }, { mergeWithLastSubmission: false });
    },
  };
}

export type ConsentPort = ReturnType<typeof consentPort>;
