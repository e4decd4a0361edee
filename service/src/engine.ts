// Which engine the service runs: the engine's worker pool (default), or in-process
// (KERF_ENGINE=inprocess: one thread, for debugging).
import type { Logger } from 'pino';
import type { EngineApi } from '@kerf/usecases';
import type { ServiceConfig } from './config.ts';
import { LocalEngine } from './engine-local.ts';
import { PoolEngine } from './engine-pool.ts';

export async function createEngine(config: ServiceConfig, log: Logger): Promise<EngineApi> {
  if (config.engine === 'inprocess') {
    log.info('engine: in-process');
    return new LocalEngine();
  }
  log.info({ threads: config.engineThreads, timeout_ms: config.analysisTimeoutMs, max_memory_mb: config.engineMaxMemoryMb, idle_timeout_ms: config.engineIdleTimeoutMs }, 'engine: worker pool');
  return new PoolEngine({ threads: config.engineThreads, timeoutMs: config.analysisTimeoutMs, maxMemoryMb: config.engineMaxMemoryMb, maxQueue: config.engineMaxQueue, idleTimeoutMs: config.engineIdleTimeoutMs });
}
