// Defaults both stores share, so behaviour does not depend on which database is configured.
export const DEFAULT_MAX_ATTEMPTS = 3;
/** Idempotency keys are remembered for 24 hours (docs/api.md "Idempotency"). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A 'started' idempotency record this old belongs to a request whose process died. */
export const IDEMPOTENCY_STALE_MS = 10 * 60 * 1000;
/** authenticate() refreshes lastUsedAt at most this often, to keep auth a read on hot paths. */
export const LAST_USED_REFRESH_MS = 60 * 1000;
export const DEMO_ACCOUNT_EMAIL = 'demo@kerf.local';
