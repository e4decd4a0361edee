// @kerf/service: the composition root. `startService` wires config -> store -> engine -> use cases ->
// one fastify instance with the transports registered; the `kerf` CLI (./cli.ts) is its other face.
export { startService, type Service, type StartOptions } from './runtime.ts';
export { configFromEnv, ConfigError, engineThreadsPerAccount, type ServiceConfig } from './config.ts';
export { createEngine } from './engine.ts';
export { LocalEngine } from './engine-local.ts';
export { PoolEngine, type PoolOptions } from './engine-pool.ts';
