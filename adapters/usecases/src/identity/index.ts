export { type ApiKeyView, createApiKey, listApiKeys, revokeApiKey } from './api-keys.ts';
export { authenticate, parseBearer } from './authenticate.ts';
export { type Connection, consentedScopes, type ConsentPort, type ConsentRequest, listConnections, revokeConnection } from './connections.ts';
export { type PruneCursors, pruneOAuthRecords } from './oauth-prune.ts';
export { DEVICE_POLLS_COLLECTION, EXPIRED_DEVICE_CODE_GRACE_MS, findOAuthRecord, GRANT_BOUND_MODELS, isLive, noteClientGrant, OAUTH_OWNER, oauthCaller, oauthCollection, oauthDocId, oauthOwner, type OAuthRecord, revokeGrantRecords } from './oauth-records.ts';
export { createPasswordAccount, hashPassword, pruneSignInRecords, SESSION_TTL_MS, sessionCaller, setPassword, SIGN_IN_LIMITS, signIn, signOut, verifyPassword } from './web-accounts.ts';
