// Service configuration from the environment: defaults, and a precise error naming the variable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { configFromEnv, ConfigError, engineThreadsPerAccount } from '@kerf/service';

describe('configFromEnv', () => {
  it('has the documented defaults', () => {
    const c = configFromEnv({});
    assert.equal(c.port, 8080);
    assert.equal(c.dataDir, './data');
    assert.equal(c.baseUrl, 'http://localhost:8080');
    assert.equal(c.mongodbUrl, undefined);
    assert.equal(c.maxUploadBytes, 50 * 1024 * 1024);
    assert.equal(c.engine, 'pool');
    assert.equal(c.webhookAllowHttpLoopback, false, 'webhooks go to https only unless asked');
    assert.equal(c.webhookConcurrency, 8);
  });

  it('engine limits: threads retire after 20 s idle; one account runs every thread but one', () => {
    assert.equal(configFromEnv({}).engineIdleTimeoutMs, 20_000);
    assert.equal(configFromEnv({ KERF_ENGINE_IDLE_TIMEOUT_MS: '0' }).engineIdleTimeoutMs, 0, '0 keeps threads');
    assert.equal(engineThreadsPerAccount(configFromEnv({ KERF_ENGINE_THREADS: '4' })), 3);
    assert.equal(engineThreadsPerAccount(configFromEnv({ KERF_ENGINE_THREADS: '1' })), 1, 'one thread cannot be kept free');
    assert.equal(engineThreadsPerAccount(configFromEnv({ KERF_ENGINE_THREADS: '4', KERF_ENGINE_THREADS_PER_ACCOUNT: '4' })), 4);
    assert.equal(engineThreadsPerAccount(configFromEnv({ KERF_ENGINE_THREADS: '2', KERF_ENGINE_THREADS_PER_ACCOUNT: '9' })), 2, 'never more than the threads');
    assert.throws(() => configFromEnv({ KERF_ENGINE_THREADS_PER_ACCOUNT: '0' }), /KERF_ENGINE_THREADS_PER_ACCOUNT/);
  });

  it('reads every variable', () => {
    const c = configFromEnv({ PORT: '9000', KERF_DATA_DIR: '/tmp/k', KERF_BASE_URL: 'https://api.example.com/', MONGODB_URL: 'mongodb://db/kerf', KERF_MAX_UPLOAD_BYTES: '1000', KERF_RATE_LIMIT: '0' });
    assert.equal(c.port, 9000);
    assert.equal(c.dataDir, '/tmp/k');
    assert.equal(c.baseUrl, 'https://api.example.com');
    assert.equal(c.mongodbUrl, 'mongodb://db/kerf');
    assert.equal(c.maxUploadBytes, 1000);
    assert.equal(c.rateLimit, false);
    const w = configFromEnv({ KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK: '1', KERF_WEBHOOK_CONCURRENCY: '3' });
    assert.equal(w.webhookAllowHttpLoopback, true);
    assert.equal(w.webhookConcurrency, 3);
  });

  it('counts rate limits in the store unless KERF_RATE_LIMIT_STORE=memory', () => {
    assert.deepEqual(configFromEnv({}).rateLimit, { max: 600, windowMs: 60_000, counters: 'store' });
    assert.deepEqual(configFromEnv({ KERF_RATE_LIMIT_STORE: 'memory', KERF_RATE_LIMIT: '5' }).rateLimit, { max: 5, windowMs: 60_000, counters: 'memory' });
  });

  it('limits web sign-ups per address per hour: KERF_SIGNUP_RATE_LIMIT, 0 turns it off', () => {
    assert.deepEqual(configFromEnv({}).signupRateLimit, { max: 5, windowMs: 3_600_000 });
    assert.deepEqual(configFromEnv({ KERF_SIGNUP_RATE_LIMIT: '20' }).signupRateLimit, { max: 20, windowMs: 3_600_000 });
    assert.equal(configFromEnv({ KERF_SIGNUP_RATE_LIMIT: '0' }).signupRateLimit, false);
  });

  for (const [name, value] of [['PORT', 'http'], ['PORT', '70000'], ['KERF_MAX_UPLOAD_BYTES', '-1'], ['KERF_BASE_URL', 'ftp://x'], ['KERF_ENGINE', 'gpu'], ['KERF_JOB_LEASE_MS', '1.5'], ['KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK', 'yes'], ['KERF_WEBHOOK_CONCURRENCY', '0'], ['KERF_RATE_LIMIT_STORE', 'redis'], ['KERF_SIGNUP_RATE_LIMIT', '-3']] as const) {
    it(`refuses ${name}=${value} naming the variable`, () => {
      assert.throws(() => configFromEnv({ [name]: value }), (err: unknown) => err instanceof ConfigError && err.code === 'invalid_config' && err.message.includes(name));
    });
  }
});
