// @kerf/oauth: the OAuth authorization server for agents (docs/agents.md "Agents: OAuth and the web sign-in").
export { createProvider, ACCESS_TOKEN_TTL_S, CONNECTION_TTL_S, DEFAULT_SCOPE, DEVICE_CLIENT_ID, OAUTH_ROUTES, CONSENT_PATH, type ProviderOptions } from './provider.ts';
export { oauthServer, protectedResourceMetadata, type OAuthPluginOptions } from './plugin.ts';
export { consentPort } from './consent.ts';
export { StoreAdapter, storeAdapter } from './adapter.ts';
