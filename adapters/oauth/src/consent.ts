// The consent port (@kerf/usecases ConsentPort) over oidc-provider's interactions: the pending
// request (client, redirect host, scopes) and finishing it with the person's decision; the service
// hands it to the web site (adapters do not import each other).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '@kerf/store';
import { SCOPES, oauthCollection, oauthDocId, type ConsentPort, type ConsentRequest } from '@kerf/usecases';
import type Provider from 'oidc-provider';

const OIDC_SCOPES = ['openid', 'offline_access'];

export function consentPort(provider: Provider, store: Store, issuer: string): ConsentPort {
  const details = async (req: IncomingMessage, res: ServerResponse) => {
    try { return await provider.interactionDetails(req, res); } catch { return null; }
  };
  return {
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
