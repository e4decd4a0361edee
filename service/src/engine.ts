// Which engine the service runs: the worker pool when the engine provides one, else in-process.
import type { Logger } from 'pino';
import type { EngineApi } from '@kerf/usecases/engine-api.ts';
import type { ServiceConfig } from './config.ts';
import { LocalEngine } from './engine-local.ts';

export async function createEngine(config: ServiceConfig, log: Logger): Promise<EngineApi> {
  log.info({ threads: config.engineThreads }, 'engine: in-process');
  return new LocalEngine(config.baseUrl);
}
